-- Up Migration
-- The audit trail of CONTRACT §9: one row per answered verification. Partitioned by month
-- (UTC) so that retention drops whole partitions and never deletes rows; the service creates
-- each month's partition ahead of time and on demand. The primary key includes the partition
-- key, as PostgreSQL requires; ids are UUIDv7, so a replayed spool row is ignored, never doubled.
CREATE TABLE audit_records (
  id          uuid        NOT NULL,
  time        timestamptz NOT NULL,
  partner     text        NOT NULL,
  interface   text        NOT NULL CHECK (interface IN ('legacy', 'graphql', 'camara')),
  operation   text        NOT NULL,
  msisdn      text        NOT NULL,
  code        text        NOT NULL,
  http_status smallint    NOT NULL,
  txn_id      text,
  correlator  text        NOT NULL,
  purpose     text,
  replayed    boolean     NOT NULL,
  PRIMARY KEY (id, time)
) PARTITION BY RANGE (time);

COMMENT ON TABLE audit_records IS 'verify-customer audit trail (docs/audit.md). Holds full msisdns: personal data.';

-- "Who asked about this number, when": verify-customer audit --msisdn N [--since --until]
CREATE INDEX audit_records_msisdn_time ON audit_records (msisdn, time);
-- "Billable counts of a month per partner, operation and outcome": verify-customer usage
-- (the month is the partition; the index covers the grouping).
CREATE INDEX audit_records_usage ON audit_records (partner, operation, code, http_status, replayed);

-- Down Migration
DROP TABLE audit_records;
