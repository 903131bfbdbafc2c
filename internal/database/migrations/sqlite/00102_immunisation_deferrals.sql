-- +goose NO TRANSACTION
-- +goose Up
-- Issue 59 (the nurse's review): a deferral ("tạm hoãn", QĐ 1575/QĐ-BYT's third conclusion of
-- the screening) is a record of its own: the vaccine or antigen not given today, why, the day
-- to come back (until_on) and the screening that found it. SQLite cannot change a CHECK
-- constraint in place, so immunisations is rebuilt as migration 00047 rebuilt lab_results:
-- foreign keys off (a no-op inside a transaction, hence none of the tool's own), the rows
-- copied with their ids, the old table dropped and the new one renamed
-- (immunisation_reactions.immunisation_id names the table and finds the new one).
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE immunisations_new (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  -- given: here, by given_by; elsewhere: reported (source card, registry or parent);
  -- refused: the parent declined; contraindicated: not to be given (until, or for good);
  -- deferred: not given today, to come back on until_on.
  kind            TEXT NOT NULL CHECK (kind IN ('given', 'elsewhere', 'refused', 'contraindicated', 'deferred')),
  status          TEXT NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'entered_in_error')),
  vaccine         TEXT NOT NULL DEFAULT '',
  antigen         TEXT NOT NULL DEFAULT '',
  occurred_on     TEXT NOT NULL,
  dose_number     INTEGER,
  lot             TEXT NOT NULL DEFAULT '',
  expiry          TEXT NOT NULL DEFAULT '',
  site            TEXT NOT NULL DEFAULT '',
  route           TEXT NOT NULL DEFAULT '',
  given_by        BIGINT REFERENCES users(id),
  performer       TEXT NOT NULL DEFAULT '',
  source          TEXT NOT NULL DEFAULT '' CHECK (source IN ('', 'card', 'registry', 'parent')),
  place           TEXT NOT NULL DEFAULT '',
  reason          TEXT NOT NULL DEFAULT '',
  until_on        TEXT NOT NULL DEFAULT '',
  appointment_id  BIGINT REFERENCES appointments(id),
  override_reason TEXT NOT NULL DEFAULT '',
  overridden      TEXT NOT NULL DEFAULT '',
  note            TEXT NOT NULL DEFAULT '',
  error_reason    TEXT NOT NULL DEFAULT '',
  created_at      TIMESTAMP NOT NULL,
  created_by      BIGINT REFERENCES users(id),
  updated_at      TIMESTAMP NOT NULL,
  updated_by      BIGINT REFERENCES users(id),
  version         INTEGER NOT NULL DEFAULT 1,
  screening       TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO immunisations_new (id, patient_id, kind, status, vaccine, antigen, occurred_on, dose_number, lot, expiry, site, route,
  given_by, performer, source, place, reason, until_on, appointment_id, override_reason, overridden, note, error_reason,
  created_at, created_by, updated_at, updated_by, version, screening)
SELECT id, patient_id, kind, status, vaccine, antigen, occurred_on, dose_number, lot, expiry, site, route,
  given_by, performer, source, place, reason, until_on, appointment_id, override_reason, overridden, note, error_reason,
  created_at, created_by, updated_at, updated_by, version, screening
FROM immunisations;
DROP TABLE immunisations;
ALTER TABLE immunisations_new RENAME TO immunisations;
CREATE INDEX immunisations_patient ON immunisations (patient_id, occurred_on);
COMMIT;
PRAGMA foreign_keys = ON;
