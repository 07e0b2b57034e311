-- The price-sheet fields a request asks every vendor to fill (JSON list of quote columns);
-- requests made before asked for none beyond the quote form's own required fields.
ALTER TABLE rfq_requests ADD COLUMN fields TEXT NOT NULL DEFAULT '[]';
