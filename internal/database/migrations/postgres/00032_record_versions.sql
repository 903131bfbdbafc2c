-- +goose Up
-- Every version of the versioned records other than patients (issue 38, ADR 35):
-- appointments, visit forms, lab orders, prescriptions, documents, staff accounts and the
-- clinic's settings, as each was once written, for the FHIR API's vread and _history. The
-- owning store writes a snapshot in the transaction of each change that moves a record's
-- version. Records last changed before this migration have their current version only.
CREATE TABLE record_versions (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        TEXT NOT NULL,
  record_id   BIGINT NOT NULL,
  version     INTEGER NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL,
  data        TEXT NOT NULL
);
CREATE UNIQUE INDEX record_versions_of ON record_versions (kind, record_id, version);
-- A kind's history, newest first, in the order the versions were written.
CREATE UNIQUE INDEX record_versions_by_kind ON record_versions (kind, id);
