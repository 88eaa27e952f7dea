-- Up Migration
-- The partner registry of CONTRACT §12 when DATABASE_URL is set: partners, their one or two
-- secrets (AES-256-GCM ciphertext under PARTNER_SECRETS_KEY_FILE, never plain text) and the log
-- of every change. Every instance keeps the whole registry in memory and reloads it when
-- registry_version.version moves (NOTIFY partner_registry, and a periodic check behind it).
CREATE TABLE registry_partners (
  name        text        PRIMARY KEY,
  api_key     text        NOT NULL UNIQUE,
  kind        text        NOT NULL CHECK (kind IN ('partner', 'internal')),
  operations  text[]      NOT NULL,
  enabled     boolean     NOT NULL,
  signature   text        NOT NULL CHECK (signature IN ('md5', 'hmac-sha256')),
  rate_limit  jsonb,
  purpose     text,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- A secret's id is unique within its partner (a file's first-format secret is 'primary' in each).
CREATE TABLE registry_secrets (
  partner     text        NOT NULL REFERENCES registry_partners (name) ON DELETE CASCADE,
  id          text        NOT NULL,
  -- v1.<iv>.<tag>.<ciphertext>, bound to (partner, id): a row copied to another partner does not open.
  sealed      text        NOT NULL,
  created_at  timestamptz NOT NULL,
  valid_until timestamptz,
  PRIMARY KEY (partner, id)
);

CREATE TABLE registry_changes (
  seq         bigserial   PRIMARY KEY,
  id          uuid        NOT NULL UNIQUE,
  at          timestamptz NOT NULL,
  actor_type  text        NOT NULL,
  actor_name  text        NOT NULL,
  action      text        NOT NULL,
  partner     text        NOT NULL,
  before      jsonb,
  after       jsonb
);
CREATE INDEX registry_changes_partner ON registry_changes (partner, seq);

-- One row: bumped by every change, in the change's own transaction.
CREATE TABLE registry_version (
  one         boolean     PRIMARY KEY DEFAULT true CHECK (one),
  version     bigint      NOT NULL
);
INSERT INTO registry_version (one, version) VALUES (true, 0);

COMMENT ON TABLE registry_secrets IS 'verify-customer partner secrets: AES-256-GCM ciphertext only (docs/console.md).';
COMMENT ON TABLE registry_changes IS 'verify-customer registry change log: who, when, what; secret ids, never a secret.';

-- Down Migration
DROP TABLE registry_version;
DROP TABLE registry_changes;
DROP TABLE registry_secrets;
DROP TABLE registry_partners;
