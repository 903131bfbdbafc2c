-- +goose Up
-- Named counters, incremented inside the transaction that uses them: patient numbers per
-- year ("mrn:2026") and the number of active patients ("patients:active"), so that no
-- request counts a whole table.
CREATE TABLE counters (
  name  TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
INSERT INTO counters (name, value) VALUES ('patients:active', 0);

CREATE TABLE patients (
  id                   INTEGER PRIMARY KEY,
  mrn                  TEXT NOT NULL UNIQUE,
  mrn_digits           TEXT NOT NULL,
  first_name           TEXT NOT NULL,
  middle_name          TEXT NOT NULL DEFAULT '',
  last_name            TEXT NOT NULL,
  sex                  TEXT NOT NULL,
  birth_date           TEXT NOT NULL,
  birth_date_estimated BOOLEAN NOT NULL DEFAULT FALSE,
  civil_status         TEXT NOT NULL DEFAULT '',
  phone                TEXT NOT NULL DEFAULT '',
  phone_digits         TEXT NOT NULL DEFAULT '',
  email                TEXT NOT NULL DEFAULT '',
  address              TEXT NOT NULL DEFAULT '',
  occupation           TEXT NOT NULL DEFAULT '',
  referred_by          TEXT NOT NULL DEFAULT '',
  blood_type           TEXT NOT NULL DEFAULT '',
  remarks              TEXT NOT NULL DEFAULT '',
  history              TEXT NOT NULL DEFAULT '{}',
  emergency_contact    TEXT NOT NULL DEFAULT '{}',
  name_key             TEXT NOT NULL,
  sort_name            TEXT NOT NULL,
  photo_file_id        INTEGER,
  archived_at          TIMESTAMP,
  archived_by          INTEGER REFERENCES users(id),
  archive_reason       TEXT NOT NULL DEFAULT '',
  created_at           TIMESTAMP NOT NULL,
  created_by           INTEGER REFERENCES users(id),
  updated_at           TIMESTAMP NOT NULL,
  updated_by           INTEGER REFERENCES users(id),
  version              INTEGER NOT NULL DEFAULT 1
);
-- The list's sort orders, over active patients only.
CREATE INDEX patients_active_name ON patients (sort_name, id) WHERE archived_at IS NULL;
CREATE INDEX patients_active_created ON patients (created_at, id) WHERE archived_at IS NULL;
CREATE INDEX patients_active_mrn ON patients (mrn_digits) WHERE archived_at IS NULL;
CREATE INDEX patients_phone ON patients (phone_digits);
CREATE INDEX patients_archived ON patients (archived_at, id) WHERE archived_at IS NOT NULL;
-- Possible duplicates: same normalised name and birth date.
CREATE INDEX patients_duplicate ON patients (name_key, birth_date);

-- Normalised name parts for search: lower case, no accents, each Chinese character alone.
CREATE TABLE patient_name_tokens (
  token      TEXT NOT NULL,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
  PRIMARY KEY (token, patient_id)
);
CREATE INDEX patient_name_tokens_patient ON patient_name_tokens (patient_id, token);

-- Photos and attachments, kept in the database so every server instance sees them.
CREATE TABLE patient_files (
  id           INTEGER PRIMARY KEY,
  patient_id   INTEGER NOT NULL REFERENCES patients(id),
  kind         TEXT NOT NULL,
  name         TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size         BIGINT NOT NULL,
  sha256       TEXT NOT NULL,
  data         BLOB NOT NULL,
  created_at   TIMESTAMP NOT NULL,
  created_by   INTEGER REFERENCES users(id),
  deleted_at   TIMESTAMP,
  deleted_by   INTEGER REFERENCES users(id)
);
CREATE INDEX patient_files_patient ON patient_files (patient_id, kind, created_at);
