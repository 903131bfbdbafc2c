-- +goose Up
-- Issue 56: the patient portal (ADR 44). A record's access is on while portal_access holds
-- its row; the desk's invite writes it and an access code, revoking deletes both and every
-- portal session that may open the record.
CREATE TABLE portal_access (
  patient_id      BIGINT PRIMARY KEY REFERENCES patients(id),
  invited_at      TIMESTAMP NOT NULL,
  invited_by      BIGINT REFERENCES users(id)
);
-- Access codes (printed on the invitation and on visit summaries), kept only as a keyed hash
-- under the key file; a code ends at expires_at or when access is revoked.
CREATE TABLE portal_access_codes (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  code_mac        TEXT NOT NULL UNIQUE,
  created_at      TIMESTAMP NOT NULL,
  created_by      BIGINT REFERENCES users(id),
  expires_at      TIMESTAMP NOT NULL
);
CREATE INDEX portal_access_codes_patient ON portal_access_codes (patient_id);
-- A guardian of a child's record: a phone number or an e-mail address (normalised as a
-- one-time code's address), or another patient's record.
CREATE TABLE portal_guardians (
  id                   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id           BIGINT NOT NULL REFERENCES patients(id),
  channel              TEXT NOT NULL CHECK (channel IN ('email', 'sms', 'patient')),
  address              TEXT NOT NULL DEFAULT '',
  guardian_patient_id  BIGINT REFERENCES patients(id),
  created_at           TIMESTAMP NOT NULL,
  created_by           BIGINT REFERENCES users(id),
  CHECK ((channel = 'patient') = (guardian_patient_id IS NOT NULL))
);
CREATE UNIQUE INDEX portal_guardians_link ON portal_guardians (patient_id, channel, address, COALESCE(guardian_patient_id, 0));
CREATE INDEX portal_guardians_address ON portal_guardians (channel, address);
CREATE INDEX portal_guardians_guardian ON portal_guardians (guardian_patient_id);
-- Portal sessions, apart from the staff's: the SHA-256 of the cookie's token, how it signed
-- in (a one-time code to an address, or an access code of a record), and its times.
CREATE TABLE portal_sessions (
  token_hash      TEXT PRIMARY KEY,
  via             TEXT NOT NULL CHECK (via IN ('code', 'access')),
  address         TEXT NOT NULL DEFAULT '',
  created_at      TIMESTAMP NOT NULL,
  last_seen_at    TIMESTAMP NOT NULL,
  expires_at      TIMESTAMP NOT NULL,
  client          TEXT NOT NULL DEFAULT ''
);
-- The records a session may open, decided at sign-in: the patient's own, and the children
-- it is a guardian of (guardian_id: the link, NULL for the own record).
CREATE TABLE portal_session_records (
  token_hash      TEXT NOT NULL REFERENCES portal_sessions(token_hash) ON DELETE CASCADE,
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  guardian_id     BIGINT REFERENCES portal_guardians(id) ON DELETE CASCADE,
  PRIMARY KEY (token_hash, patient_id)
);
CREATE INDEX portal_session_records_patient ON portal_session_records (patient_id);

INSERT INTO permissions (name) VALUES ('manage portal');
INSERT INTO role_permissions (role_id, permission) SELECT id, 'manage portal' FROM roles WHERE name IN ('admin', 'receptionist');
