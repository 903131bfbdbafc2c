-- +goose Up
-- Results against orders (issue 35, ADR 29). A test ordered on a visit becomes a lab order
-- with a life of its own: ordered -> specimen collected -> preliminary -> final -> reviewed,
-- or cancelled (with a reason, before any result) or not done (specimen rejected, patient
-- never went). Every change of state is a row of lab_order_events (who, when, why).
-- to_review is 1 while a result waits for the ordering doctor; attention ranks what it
-- holds (2 critical, 1 abnormal or a delta, 0 normal), so a doctor's queue is one index range.
CREATE TABLE lab_orders (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  appointment_id  BIGINT NOT NULL REFERENCES appointments(id),
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  test            TEXT NOT NULL REFERENCES lab_tests(code),
  note            TEXT NOT NULL DEFAULT '',
  status          TEXT NOT NULL CHECK (status IN ('ordered', 'collected', 'preliminary', 'final', 'reviewed', 'cancelled', 'not_done')),
  reason          TEXT NOT NULL DEFAULT '',
  ordered_at      TIMESTAMP NOT NULL,
  ordered_by      BIGINT REFERENCES users(id),
  due_at          TIMESTAMP NOT NULL,
  collected_at    TIMESTAMP,
  resulted_at     TIMESTAMP,
  reviewed_at     TIMESTAMP,
  reviewed_by     BIGINT REFERENCES users(id),
  review_comment  TEXT NOT NULL DEFAULT '',
  to_review       INTEGER NOT NULL DEFAULT 0,
  attention       INTEGER NOT NULL DEFAULT 0,
  corrections     INTEGER NOT NULL DEFAULT 0,
  report_file_id  BIGINT REFERENCES patient_files(id),
  updated_at      TIMESTAMP NOT NULL,
  updated_by      BIGINT REFERENCES users(id),
  version         INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX lab_orders_patient ON lab_orders (patient_id, id);
CREATE INDEX lab_orders_appointment ON lab_orders (appointment_id, id);
CREATE INDEX lab_orders_review ON lab_orders (ordered_by, to_review, attention, resulted_at, id);
CREATE INDEX lab_orders_due ON lab_orders (status, due_at, id);

CREATE TABLE lab_order_events (
  id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id  BIGINT NOT NULL REFERENCES lab_orders(id),
  status    TEXT NOT NULL,
  reason    TEXT NOT NULL DEFAULT '',
  at        TIMESTAMP NOT NULL,
  by_user   BIGINT REFERENCES users(id)
);
CREATE INDEX lab_order_events_order ON lab_order_events (order_id, id);

-- One analyte's result. A number is kept as typed (entered, entered_unit) and in the
-- analyte's canonical unit (value, unit); the range that applied is copied in (a later
-- catalogue edit never changes an old flag), from the catalogue or from the lab's own
-- printed range (range_source 'lab'). A correction adds new rows and marks the ones it
-- replaces not current; nothing is overwritten. observed_at is the specimen's collection
-- time, the x of a trend.
CREATE TABLE lab_results (
  id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id       BIGINT NOT NULL REFERENCES lab_orders(id),
  patient_id     BIGINT NOT NULL REFERENCES patients(id),
  analyte        TEXT NOT NULL REFERENCES lab_analytes(code),
  loinc          TEXT NOT NULL DEFAULT '',
  type           TEXT NOT NULL CHECK (type IN ('numeric', 'coded', 'text')),
  entered        TEXT NOT NULL DEFAULT '',
  entered_unit   TEXT NOT NULL DEFAULT '',
  value          TEXT,
  unit           TEXT NOT NULL DEFAULT '',
  answer         TEXT NOT NULL DEFAULT '',
  text           TEXT NOT NULL DEFAULT '',
  range_low      TEXT,
  range_high     TEXT,
  critical_low   TEXT,
  critical_high  TEXT,
  range_source   TEXT NOT NULL DEFAULT 'none' CHECK (range_source IN ('catalogue', 'lab', 'none')),
  flag           TEXT NOT NULL DEFAULT '',
  delta          TEXT NOT NULL DEFAULT '',
  status         TEXT NOT NULL CHECK (status IN ('preliminary', 'final', 'corrected')),
  is_current     INTEGER NOT NULL DEFAULT 1,
  replaces       BIGINT REFERENCES lab_results(id),
  observed_at    TIMESTAMP NOT NULL,
  recorded_at    TIMESTAMP NOT NULL,
  recorded_by    BIGINT REFERENCES users(id)
);
CREATE INDEX lab_results_order ON lab_results (order_id, id);
CREATE INDEX lab_results_patient ON lab_results (patient_id, observed_at, id);
CREATE INDEX lab_results_trend ON lab_results (patient_id, analyte, observed_at, id);

-- A critical result waiting for the ordering doctor: open until acknowledged (who, when,
-- how the patient was reached, what was done, the read-back of a result taken by phone);
-- escalated_at is set once it has waited past the clinic's interval.
CREATE TABLE critical_alerts (
  id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  result_id        BIGINT NOT NULL REFERENCES lab_results(id),
  order_id         BIGINT NOT NULL REFERENCES lab_orders(id),
  patient_id       BIGINT NOT NULL REFERENCES patients(id),
  doctor_id        BIGINT REFERENCES users(id),
  raised_at        TIMESTAMP NOT NULL,
  escalated_at     TIMESTAMP,
  is_open          INTEGER NOT NULL DEFAULT 1,
  acknowledged_at  TIMESTAMP,
  acknowledged_by  BIGINT REFERENCES users(id),
  contact          TEXT NOT NULL DEFAULT '',
  action           TEXT NOT NULL DEFAULT '',
  read_back        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX critical_alerts_open ON critical_alerts (is_open, raised_at, id);
CREATE INDEX critical_alerts_doctor ON critical_alerts (doctor_id, is_open, raised_at, id);
CREATE INDEX critical_alerts_raised ON critical_alerts (raised_at, id);

INSERT INTO permissions (name) VALUES ('record results'), ('review results');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, 'record results' FROM roles WHERE name IN ('admin', 'doctor', 'nurse');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, 'review results' FROM roles WHERE name IN ('admin', 'doctor');
