-- Up Migration
-- KYC Match (CONTRACT §11): which attributes a match compared and how many answered true,
-- false and not_available. Names and counts only, never a value: the values are personal data.
-- Null for every other operation.
ALTER TABLE audit_records ADD COLUMN match jsonb;

COMMENT ON COLUMN audit_records.match IS 'KYC Match summary {compared, true, false, not_available}: attribute names and counts, never values.';

-- Down Migration
ALTER TABLE audit_records DROP COLUMN match;
