-- +goose Up
-- Critical limits belong to the analyte, not to a reference band (issue 52, ADR 37): a
-- child, a newborn or a patient whose sex is recorded as other or unknown has no reference
-- band of their own for some analytes, and the critical limits went with the band. Each
-- analyte now has its own critical bands by age (any sex), covering every age, applied
-- whatever reference interval matches or none; each row says where its numbers come from.
CREATE TABLE lab_critical_limits (
  analyte          TEXT NOT NULL REFERENCES lab_analytes (code),
  age_from_months  INTEGER NOT NULL DEFAULT 0 CHECK (age_from_months >= 0),
  age_to_months    INTEGER CHECK (age_to_months > age_from_months),
  critical_low     TEXT,
  critical_high    TEXT,
  source           TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (analyte, age_from_months)
);
-- The limits a clinic had on its reference bands move to the analyte's critical bands, one
-- band for each age the reference bands started at (the first band's limits where the sexes
-- had a band each).
INSERT INTO lab_critical_limits (analyte, age_from_months, age_to_months, critical_low, critical_high, source)
SELECT r.analyte, r.age_from_months, r.age_to_months, r.critical_low, r.critical_high, 'moved from the reference band'
FROM lab_ranges r
WHERE (r.critical_low IS NOT NULL OR r.critical_high IS NOT NULL)
  AND r.id = (SELECT MIN(r2.id) FROM lab_ranges r2 WHERE r2.analyte = r.analyte AND r2.age_from_months = r.age_from_months
              AND (r2.critical_low IS NOT NULL OR r2.critical_high IS NOT NULL));
UPDATE lab_ranges SET critical_low = NULL, critical_high = NULL;

-- A delta check's rule: a change of at least percent per cent, or of at least abs in the
-- canonical unit, since an earlier result inside the window, flagged U or D (KDIGO 2012 for
-- creatinine; CLSI EP33 for the others). The analyte's own two numbers had no window.
CREATE TABLE lab_delta_rules (
  analyte       TEXT NOT NULL REFERENCES lab_analytes (code),
  window_hours  INTEGER NOT NULL CHECK (window_hours > 0),
  percent       TEXT,
  abs           TEXT,
  source        TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (analyte, window_hours)
);

-- A clinic's own change to an analyte's delta numbers is kept as a rule over a year (they had
-- no window); the shipped numbers give way to the shipped rules with their windows.
INSERT INTO lab_delta_rules (analyte, window_hours, percent, abs, source)
SELECT a.code, 8760, a.delta_percent, a.delta_abs, 'moved from the analyte (it had no window; a year given)'
FROM lab_analytes a
WHERE (a.delta_percent IS NOT NULL OR a.delta_abs IS NOT NULL)
  AND NOT ((a.code = 'HGB' AND a.delta_percent IS NULL AND a.delta_abs = '20')
        OR (a.code = 'HBA1C' AND a.delta_percent IS NULL AND a.delta_abs = '1')
        OR (a.code = 'CREA' AND a.delta_percent = '50' AND a.delta_abs IS NULL)
        OR (a.code = 'EGFR' AND a.delta_percent = '25' AND a.delta_abs IS NULL));
UPDATE lab_analytes SET delta_percent = NULL, delta_abs = NULL;

-- A result as the laboratory reported it: a censored value keeps its comparator (<, <=, >,
-- >=; FHIR Quantity.comparator), and the reason no reference interval was applied, or that
-- the one applied is not sex-specific, is kept with the range it was judged by.
ALTER TABLE lab_results ADD COLUMN comparator TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_results ADD COLUMN range_note TEXT NOT NULL DEFAULT '';

-- Shipped values corrected where the clinic has not changed them (issue 52's clinical review):
-- a positive pregnancy test needs action; screening immunoassays answer reactive,
-- non-reactive or indeterminate; the lipid limits are the guidelines' exclusive ones; HDL in
-- women is low below 50 mg/dL (50 mg/dL is 1.29 mmol/L).
UPDATE lab_analytes SET answers = 'negative:N,positive:A' WHERE code = 'UHCG' AND answers = 'negative:N,positive:N';
UPDATE lab_analytes SET answers = 'non-reactive:N,reactive:A,indeterminate:A'
  WHERE code IN ('HIVAGAB', 'HCVAB', 'HBSAG') AND answers = 'negative:N,positive:A';
UPDATE lab_ranges SET low = '1.29' WHERE analyte = 'HDL' AND sex = 'female' AND age_from_months = 216 AND low = '1.2';
UPDATE lab_ranges SET high = '1.68' WHERE analyte = 'TG' AND sex = 'any' AND age_from_months = 216 AND high = '1.7';
UPDATE lab_ranges SET high = '5.16' WHERE analyte = 'CHOL' AND sex = 'any' AND age_from_months = 216 AND high = '5.2';
UPDATE lab_ranges SET high = '2.99' WHERE analyte = 'LDL' AND sex = 'any' AND age_from_months = 216 AND high = '3.0';
-- ESR rises with age (Miller 1983): the adult band ends at 50 years, older bands are shipped.
UPDATE lab_ranges SET age_to_months = 600 WHERE analyte = 'ESR' AND age_from_months = 216 AND age_to_months IS NULL;
-- Children's WBC by age (Harriet Lane): the one 1–18-year band ends at 4 years.
UPDATE lab_ranges SET age_to_months = 48, low = '6.0', high = '17.5'
  WHERE analyte = 'WBC' AND sex = 'any' AND age_from_months = 12 AND age_to_months = 216 AND low = '4.5' AND high = '13.5';
-- Platelets' band started at six months: it now covers every age.
UPDATE lab_ranges SET age_from_months = 0 WHERE analyte = 'PLT' AND sex = 'any' AND age_from_months = 6
  AND NOT EXISTS (SELECT 1 FROM lab_ranges r2 WHERE r2.analyte = 'PLT' AND r2.age_from_months = 0);
-- Test-strip answers carry the ordinal LOINC codes; urea and direct bilirubin in moles their codes.
UPDATE lab_analytes SET loinc = '25428-4' WHERE code = 'UGLU' AND loinc = '5792-7';
UPDATE lab_analytes SET loinc = '2514-8' WHERE code = 'UKET' AND loinc = '5797-6';
UPDATE lab_analytes SET loinc = '22664-7' WHERE code = 'UREA' AND loinc = '';
UPDATE lab_analytes SET loinc = '14629-0' WHERE code = 'DBIL' AND loinc = '';

-- A critical value recorded again keeps its open alert: the alert of a result is found by it.
CREATE INDEX critical_alerts_result ON critical_alerts (result_id);
