-- +goose Up
-- Appointments (visits): the day's queue per doctor, the week calendar, statuses.
CREATE TABLE appointments (
  id               INTEGER PRIMARY KEY,
  patient_id       INTEGER NOT NULL REFERENCES patients(id),
  doctor_id        INTEGER NOT NULL REFERENCES users(id),
  starts_at        TIMESTAMP NOT NULL,
  ends_at          TIMESTAMP NOT NULL,
  duration_minutes INTEGER NOT NULL,
  -- The clinic's local date of starts_at (YYYY-MM-DD): the queue a visit stands in.
  day              TEXT NOT NULL,
  queue_number     INTEGER NOT NULL,
  type             TEXT NOT NULL,
  reason           TEXT NOT NULL DEFAULT '',
  remarks          TEXT NOT NULL DEFAULT '',
  status           TEXT NOT NULL,
  cancel_reason    TEXT NOT NULL DEFAULT '',
  -- The visit whose follow-up date booked this appointment (at most one per visit).
  follow_up_of     INTEGER REFERENCES appointments(id),
  created_at       TIMESTAMP NOT NULL,
  created_by       INTEGER REFERENCES users(id),
  updated_at       TIMESTAMP NOT NULL,
  updated_by       INTEGER REFERENCES users(id),
  version          INTEGER NOT NULL DEFAULT 1
);
-- The day's queue (all doctors, or one): one index range.
CREATE INDEX appointments_day ON appointments (day, doctor_id, queue_number);
-- A doctor's calendar and the double-booking check.
CREATE INDEX appointments_doctor_time ON appointments (doctor_id, starts_at);
-- A patient's visit history, newest first.
CREATE INDEX appointments_patient ON appointments (patient_id, starts_at);
CREATE UNIQUE INDEX appointments_follow_up ON appointments (follow_up_of) WHERE follow_up_of IS NOT NULL;

-- The diagnosis form of an appointment: vitals, findings, coded diagnoses, orders, plan,
-- kept as one JSON document. A signed visit is read-only; later changes are amendments.
CREATE TABLE visits (
  appointment_id INTEGER PRIMARY KEY REFERENCES appointments(id),
  patient_id     INTEGER NOT NULL REFERENCES patients(id),
  content        TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'draft',
  signed_at      TIMESTAMP,
  signed_by      INTEGER REFERENCES users(id),
  created_at     TIMESTAMP NOT NULL,
  created_by     INTEGER REFERENCES users(id),
  updated_at     TIMESTAMP NOT NULL,
  updated_by     INTEGER REFERENCES users(id),
  version        INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX visits_patient ON visits (patient_id);

-- Amendments of signed visits: the content as it was before, who, when and why.
CREATE TABLE visit_amendments (
  id             INTEGER PRIMARY KEY,
  appointment_id INTEGER NOT NULL REFERENCES visits(appointment_id),
  reason         TEXT NOT NULL,
  previous       TEXT NOT NULL,
  amended_at     TIMESTAMP NOT NULL,
  amended_by     INTEGER REFERENCES users(id)
);
CREATE INDEX visit_amendments_visit ON visit_amendments (appointment_id, id);

-- +goose StatementBegin
CREATE TRIGGER visit_amendments_no_update BEFORE UPDATE ON visit_amendments
BEGIN
  SELECT RAISE(ABORT, 'amendments are append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER visit_amendments_no_delete BEFORE DELETE ON visit_amendments
BEGIN
  SELECT RAISE(ABORT, 'amendments are append-only');
END;
-- +goose StatementEnd

-- Diagnosis codes (ICD-10 by default): labels in the four languages, and the folded text
-- that search matches words against.
CREATE TABLE diagnosis_codes (
  code     TEXT PRIMARY KEY,
  label_en TEXT NOT NULL,
  label_ru TEXT NOT NULL DEFAULT '',
  label_zh TEXT NOT NULL DEFAULT '',
  label_vi TEXT NOT NULL DEFAULT '',
  terms    TEXT NOT NULL,
  active   BOOLEAN NOT NULL DEFAULT TRUE
);

-- Laboratory and imaging tests that a visit can order.
CREATE TABLE lab_tests (
  code     TEXT PRIMARY KEY,
  kind     TEXT NOT NULL,
  label_en TEXT NOT NULL,
  label_ru TEXT NOT NULL DEFAULT '',
  label_zh TEXT NOT NULL DEFAULT '',
  label_vi TEXT NOT NULL DEFAULT '',
  active   BOOLEAN NOT NULL DEFAULT TRUE
);
