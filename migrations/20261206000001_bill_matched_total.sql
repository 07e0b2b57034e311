-- What a bill's lines matched to the rental cost, in the bill's currency (exact decimal in
-- text): the order page ties it back to the bill's total as "matched + not matched = bill
-- total". Bills imported before this column read it from their lines (NULL here).
ALTER TABLE bills ADD COLUMN matched_total TEXT;
