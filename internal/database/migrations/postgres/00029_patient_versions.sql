-- +goose Up
-- Every version of a patient's record, as it was once written (issue 38, ADR 35): the
-- FHIR API's vread and _history read real snapshots, not a reconstruction. A snapshot is
-- written in the transaction of the change that made it (registration, an edit, archiving,
-- restoring), so the record and its history never disagree. Records last changed before
-- this migration have their current version only (read from the record itself).
CREATE TABLE patient_versions (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id  BIGINT NOT NULL REFERENCES patients(id),
  version     INTEGER NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL,
  recorded_by BIGINT REFERENCES users(id),
  data        TEXT NOT NULL
);
CREATE UNIQUE INDEX patient_versions_of ON patient_versions (patient_id, version);
