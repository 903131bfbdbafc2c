-- +goose Up
-- Issue 59: children's care. The immunisation record (ADR 49): every dose given here or
-- elsewhere, every refusal and contraindication, each with who wrote it and when; never
-- deleted, only marked entered in error with a reason. What a child is due next is worked out
-- when it is read (the forecast), never stored.
CREATE TABLE immunisations (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  -- given: here, by given_by; elsewhere: reported (source card, registry or parent);
  -- refused: the parent declined; contraindicated: not to be given (until, or for good).
  kind            TEXT NOT NULL CHECK (kind IN ('given', 'elsewhere', 'refused', 'contraindicated')),
  status          TEXT NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'entered_in_error')),
  -- A product of the vaccine catalogue (given, elsewhere; a refusal may name one).
  vaccine         TEXT NOT NULL DEFAULT '',
  -- An antigen of the catalogue (refused, contraindicated; empty for a dose).
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
  -- The safety findings overridden at giving, and the reason given (audited too).
  override_reason TEXT NOT NULL DEFAULT '',
  overridden      TEXT NOT NULL DEFAULT '',
  note            TEXT NOT NULL DEFAULT '',
  error_reason    TEXT NOT NULL DEFAULT '',
  created_at      TIMESTAMP NOT NULL,
  created_by      BIGINT REFERENCES users(id),
  updated_at      TIMESTAMP NOT NULL,
  updated_by      BIGINT REFERENCES users(id),
  version         INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX immunisations_patient ON immunisations (patient_id, occurred_on);

-- An adverse event following immunisation, against the dose it followed.
CREATE TABLE immunisation_reactions (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  immunisation_id  BIGINT NOT NULL REFERENCES immunisations(id),
  patient_id       BIGINT NOT NULL REFERENCES patients(id),
  onset_on         TEXT NOT NULL,
  reaction         TEXT NOT NULL,
  severity         TEXT NOT NULL CHECK (severity IN ('mild', 'moderate', 'severe')),
  serious          BOOLEAN NOT NULL DEFAULT FALSE,
  description      TEXT NOT NULL DEFAULT '',
  reported_to      TEXT NOT NULL DEFAULT '',
  status           TEXT NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'entered_in_error')),
  error_reason     TEXT NOT NULL DEFAULT '',
  created_at       TIMESTAMP NOT NULL,
  created_by       BIGINT REFERENCES users(id),
  version          INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX immunisation_reactions_dose ON immunisation_reactions (immunisation_id);
CREATE INDEX immunisation_reactions_patient ON immunisation_reactions (patient_id);

-- The clinic's due list: a child's next dose, kept as each record of the child changes (the
-- forecast's first open recommendation per antigen), so that a list of 20,000 children is an
-- index range, not 20,000 forecasts. Rebuilt for a child whenever its record, birth date or the
-- clinic's schedules change; the forecast itself stays the truth. It carries what the list
-- filters on of the child (the birth date, archived), kept by the patient store's hook, so
-- that the list reads this table alone (its indexes: 00100).
CREATE TABLE immunisation_due (
  patient_id   BIGINT NOT NULL REFERENCES patients(id),
  antigen      TEXT NOT NULL,
  dose_number  INTEGER NOT NULL,
  schedule     TEXT NOT NULL,
  earliest_on  TEXT NOT NULL,
  due_on       TEXT NOT NULL,
  overdue_on   TEXT NOT NULL,
  birth_date   TEXT NOT NULL DEFAULT '',
  archived     BOOLEAN NOT NULL DEFAULT FALSE,
  PRIMARY KEY (patient_id, antigen)
);

INSERT INTO permissions (name) VALUES ('record immunisations');
INSERT INTO role_permissions (role_id, permission) SELECT id, 'record immunisations' FROM roles WHERE name IN ('admin', 'doctor', 'nurse');
