-- +goose NO TRANSACTION
-- +goose Up
-- Issue 54 (ADR 38): a result entered in error is retracted, not deleted: its row stays, not
-- current, with status 'entered_in_error', the reason, who and when; and each result row
-- names the laboratory that performed it ('' is the clinic itself). SQLite cannot change a
-- CHECK constraint in place, so lab_results is rebuilt: foreign keys are switched off for
-- the rebuild (a pragma that is a no-op inside a transaction, hence no transaction of the
-- migration tool's own), the rows copied with their ids, the old table dropped and the new
-- one renamed (critical_alerts.result_id and replaces name the table, and find the new one).
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE lab_results_new (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id        BIGINT NOT NULL REFERENCES lab_orders(id),
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  analyte         TEXT NOT NULL REFERENCES lab_analytes(code),
  loinc           TEXT NOT NULL DEFAULT '',
  type            TEXT NOT NULL CHECK (type IN ('numeric', 'coded', 'text')),
  entered         TEXT NOT NULL DEFAULT '',
  entered_unit    TEXT NOT NULL DEFAULT '',
  value           TEXT,
  unit            TEXT NOT NULL DEFAULT '',
  answer          TEXT NOT NULL DEFAULT '',
  text            TEXT NOT NULL DEFAULT '',
  range_low       TEXT,
  range_high      TEXT,
  critical_low    TEXT,
  critical_high   TEXT,
  range_source    TEXT NOT NULL DEFAULT 'none' CHECK (range_source IN ('catalogue', 'lab', 'none')),
  flag            TEXT NOT NULL DEFAULT '',
  delta           TEXT NOT NULL DEFAULT '',
  status          TEXT NOT NULL CHECK (status IN ('preliminary', 'final', 'corrected', 'entered_in_error')),
  is_current      INTEGER NOT NULL DEFAULT 1,
  replaces        BIGINT REFERENCES lab_results(id),
  observed_at     TIMESTAMP NOT NULL,
  recorded_at     TIMESTAMP NOT NULL,
  recorded_by     BIGINT REFERENCES users(id),
  comparator      TEXT NOT NULL DEFAULT '',
  range_note      TEXT NOT NULL DEFAULT '',
  performer       TEXT NOT NULL DEFAULT '',
  retract_reason  TEXT NOT NULL DEFAULT '',
  retracted_at    TIMESTAMP,
  retracted_by    BIGINT REFERENCES users(id)
);
INSERT INTO lab_results_new (id, order_id, patient_id, analyte, loinc, type, entered, entered_unit, value, unit, answer, text,
  range_low, range_high, critical_low, critical_high, range_source, flag, delta, status, is_current, replaces, observed_at,
  recorded_at, recorded_by, comparator, range_note)
SELECT id, order_id, patient_id, analyte, loinc, type, entered, entered_unit, value, unit, answer, text,
  range_low, range_high, critical_low, critical_high, range_source, flag, delta, status, is_current, replaces, observed_at,
  recorded_at, recorded_by, comparator, range_note
FROM lab_results;
DROP TABLE lab_results;
ALTER TABLE lab_results_new RENAME TO lab_results;
CREATE INDEX lab_results_order ON lab_results (order_id, id);
CREATE INDEX lab_results_patient ON lab_results (patient_id, observed_at, id);
CREATE INDEX lab_results_trend ON lab_results (patient_id, analyte, observed_at, id);

-- The catalogue's reporting precision where laboratories report finer (a clinic's own
-- change kept): TSH to 0.001 mIU/L (a suppressed TSH reads 0.004), PSA to 0.001 ng/mL
-- (ultrasensitive PSA after prostatectomy). A value is stored as typed whatever this says.
UPDATE lab_analytes SET decimals = 3 WHERE code IN ('TSH', 'PSA') AND decimals = 2;
COMMIT;
PRAGMA foreign_keys = ON;
