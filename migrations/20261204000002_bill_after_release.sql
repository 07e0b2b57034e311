-- Bill lines of the rental's own resources charged for periods starting at or after its
-- release (the disk, snapshot or address left behind) are the rental's cost, counted "after
-- release" inside the variance, no longer unmatched. Lines imported before this rule were
-- stored as 'outside_period'; they become matched, and each bill's count follows. Times are
-- RFC 3339 UTC text with a `Z` in both tables, so text order is time order.
UPDATE bill_lines SET unmatched = NULL
WHERE unmatched = 'outside_period'
  AND EXISTS (
      SELECT 1 FROM bills b JOIN rentals r ON r.id = b.rental_id
      WHERE b.id = bill_lines.bill_id
        AND r.released_at IS NOT NULL
        AND bill_lines.period_start >= r.released_at
  );

UPDATE bills SET matched_count = (
    SELECT COUNT(*) FROM bill_lines l WHERE l.bill_id = bills.id AND l.unmatched IS NULL
);

-- What the order's reconciliation counted as charged after release when the bill was saved
-- (exact decimal in text): with it, a change of the threshold keeps such an order flagged.
ALTER TABLE bills ADD COLUMN after_release_total TEXT NOT NULL DEFAULT '0';
