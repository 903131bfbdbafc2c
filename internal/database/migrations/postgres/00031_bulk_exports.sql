-- +goose Up
-- Bulk Data export (issue 38, ADR 35): an export runs in the background and writes its
-- NDJSON into the database in chunks, so that any instance can answer its status and serve
-- its files, and the memory it takes does not grow with the clinic. Files are kept for a
-- day after the export finished, then swept.
CREATE TABLE bulk_exports (
  id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job              TEXT NOT NULL UNIQUE,
  user_id          BIGINT REFERENCES users(id),
  client_id        BIGINT REFERENCES api_clients(id),
  request          TEXT NOT NULL,
  types            TEXT NOT NULL,
  since            TIMESTAMPTZ,
  group_doctor     BIGINT,
  status           TEXT NOT NULL,
  progress         TEXT NOT NULL DEFAULT '',
  counts           TEXT NOT NULL DEFAULT '{}',
  error            TEXT NOT NULL DEFAULT '',
  transaction_time TIMESTAMPTZ NOT NULL,
  created_at       TIMESTAMPTZ NOT NULL,
  heartbeat_at     TIMESTAMPTZ NOT NULL,
  finished_at      TIMESTAMPTZ
);
CREATE INDEX bulk_exports_status ON bulk_exports (status, heartbeat_at);
CREATE TABLE bulk_export_chunks (
  export_id BIGINT NOT NULL REFERENCES bulk_exports(id),
  type      TEXT NOT NULL,
  seq       INTEGER NOT NULL,
  lines     INTEGER NOT NULL,
  data      TEXT NOT NULL,
  PRIMARY KEY (export_id, type, seq)
);
-- A doctor's patients, for a Group export ("all patients of a doctor").
CREATE INDEX appointments_doctor_patient ON appointments (doctor_id, patient_id);
