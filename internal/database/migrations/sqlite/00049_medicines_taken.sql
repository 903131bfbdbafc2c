-- +goose Up
-- Issue 55 (M4, ADR 25): the medicines a patient takes that were not prescribed here —
-- prescribed by another clinic or doctor ('elsewhere', with the prescriber's name) or bought
-- over the counter ('otc'). The medicine-safety check counts each one not stopped as a
-- current medicine, as it counts the supply of prescriptions issued here. A catalogue entry
-- (medicine_id) is what the check reads best; free text is matched by its words.
-- started_on is a date, a month (YYYY-MM) or a year (YYYY), or empty when not known.
-- confirmed_*: the last visit at which the patient said they still take it.
CREATE TABLE medicines_taken (
  id             INTEGER PRIMARY KEY,
  patient_id     INTEGER NOT NULL REFERENCES patients(id),
  medicine_id    INTEGER REFERENCES medicines(id),
  medicine       TEXT NOT NULL,
  dose           TEXT NOT NULL DEFAULT '',
  frequency      TEXT NOT NULL DEFAULT '',
  source         TEXT NOT NULL,
  prescriber     TEXT NOT NULL DEFAULT '',
  started_on     TEXT NOT NULL DEFAULT '',
  recorded_at    TIMESTAMP NOT NULL,
  recorded_by    INTEGER REFERENCES users(id),
  updated_at     TIMESTAMP NOT NULL,
  updated_by     INTEGER REFERENCES users(id),
  confirmed_at   TIMESTAMP,
  confirmed_by   INTEGER REFERENCES users(id),
  confirmed_appointment_id INTEGER REFERENCES appointments(id),
  stopped_on     TEXT NOT NULL DEFAULT '',
  stop_reason    TEXT NOT NULL DEFAULT '',
  stopped_at     TIMESTAMP,
  stopped_by     INTEGER REFERENCES users(id),
  version        INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX medicines_taken_patient ON medicines_taken (patient_id, id);
