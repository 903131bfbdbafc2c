-- +goose Up
-- The results catalogue (issue 35, ADR 28): what each orderable test reports. A test is a
-- panel of analytes (a single test is a panel of one); each analyte has its LOINC code and
-- UCUM unit (the canonical unit, in which results are compared and charted), the other units
-- it may be entered in with their conversion, the values a person could not have (refused
-- as typing mistakes), how much change since the last result deserves attention, the coded
-- answers of a qualitative test with the flag each one carries, and reference and critical
-- ranges by sex and age. The shipped values are defaults for the clinic's medical lead to
-- confirm; a result keeps the range that applied to it, so an edit here never changes one.
-- Numbers are kept as the decimal text they were written in (exact, and what the archive
-- carries between engines); the Go side reads them as numbers.
-- ECG and echocardiography are functional studies, not imaging (translators' review S5): a
-- doctor does not file them under radiology. They keep their place on the request for
-- instrumental examinations.
UPDATE lab_tests SET kind = 'functional' WHERE code IN ('ECG', 'ECHO') AND kind = 'imaging';
ALTER TABLE lab_tests ADD COLUMN loinc TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_tests ADD COLUMN turnaround_hours INTEGER NOT NULL DEFAULT 168 CHECK (turnaround_hours > 0);

CREATE TABLE lab_analytes (
  code            TEXT PRIMARY KEY,
  loinc           TEXT NOT NULL DEFAULT '',
  type            TEXT NOT NULL CHECK (type IN ('numeric', 'coded', 'text')),
  unit            TEXT NOT NULL DEFAULT '',
  decimals        INTEGER NOT NULL DEFAULT 0 CHECK (decimals BETWEEN 0 AND 4),
  plausible_low   TEXT,
  plausible_high  TEXT,
  delta_percent   TEXT,
  delta_abs       TEXT,
  answers         TEXT NOT NULL DEFAULT '', -- coded: answer:flag, comma-separated (negative:N,positive:A)
  label_en        TEXT NOT NULL,
  label_ru        TEXT NOT NULL,
  label_zh        TEXT NOT NULL,
  label_vi        TEXT NOT NULL,
  version         INTEGER NOT NULL DEFAULT 1
);

-- Another unit an analyte may be entered in: canonical = entered x factor, or an equation
-- (hba1c_ifcc: IFCC mmol/mol = 10.929 x (NGSP % - 2.15)), with the LOINC code of a value
-- reported in that unit where its property differs (mass against moles).
CREATE TABLE lab_analyte_units (
  analyte     TEXT NOT NULL REFERENCES lab_analytes (code),
  unit        TEXT NOT NULL,
  conversion  TEXT NOT NULL CHECK (conversion IN ('factor', 'hba1c_ifcc')),
  factor      TEXT NOT NULL DEFAULT '0',
  loinc       TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (analyte, unit)
);

-- A reference range: for a sex (or any) and an age band in completed months [from, to),
-- the normal low and high (inclusive) and the critical limits (at or beyond them, an alert).
CREATE TABLE lab_ranges (
  id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  analyte          TEXT NOT NULL REFERENCES lab_analytes (code),
  sex              TEXT NOT NULL CHECK (sex IN ('any', 'female', 'male')),
  age_from_months  INTEGER NOT NULL DEFAULT 0 CHECK (age_from_months >= 0),
  age_to_months    INTEGER CHECK (age_to_months > age_from_months),
  low              TEXT,
  high             TEXT,
  critical_low     TEXT,
  critical_high    TEXT
);
CREATE INDEX lab_ranges_analyte ON lab_ranges (analyte);

-- The analytes a test reports, in the order a report lists them.
CREATE TABLE lab_test_analytes (
  test      TEXT NOT NULL REFERENCES lab_tests (code),
  analyte   TEXT NOT NULL REFERENCES lab_analytes (code),
  position  INTEGER NOT NULL,
  PRIMARY KEY (test, analyte)
);
CREATE INDEX lab_test_analytes_analyte ON lab_test_analytes (analyte);
