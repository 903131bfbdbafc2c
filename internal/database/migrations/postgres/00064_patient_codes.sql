-- +goose Up
-- Issue 56: one-time codes sent to a patient's phone or e-mail, to hold an online booking or
-- to sign in to the portal (6 digits, 10 minutes, 5 tries). The code itself is never kept:
-- code_mac is its keyed hash under the key file (with the row's id), checked in constant
-- time; a wrong try counts in tries, committed on its own so that no rollback undoes it.
CREATE TABLE patient_codes (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  purpose         TEXT NOT NULL CHECK (purpose IN ('book', 'portal')),
  channel         TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  address         TEXT NOT NULL,
  patient_id      BIGINT REFERENCES patients(id),
  code_mac        TEXT NOT NULL,
  tries           INTEGER NOT NULL DEFAULT 0,
  created_at      TIMESTAMP NOT NULL,
  expires_at      TIMESTAMP NOT NULL,
  used_at         TIMESTAMP
);
CREATE INDEX patient_codes_address ON patient_codes (address, created_at);

