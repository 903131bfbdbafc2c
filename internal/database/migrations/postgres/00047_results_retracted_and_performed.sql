-- +goose Up
-- Issue 54 (ADR 38): a result entered in error is retracted, not deleted: its row stays, not
-- current, with status 'entered_in_error', the reason, who and when; and each result row
-- names the laboratory that performed it ('' is the clinic itself).
ALTER TABLE lab_results DROP CONSTRAINT lab_results_status_check;
ALTER TABLE lab_results ADD CONSTRAINT lab_results_status_check
  CHECK (status IN ('preliminary', 'final', 'corrected', 'entered_in_error'));
ALTER TABLE lab_results ADD COLUMN performer TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_results ADD COLUMN retract_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_results ADD COLUMN retracted_at TIMESTAMP;
ALTER TABLE lab_results ADD COLUMN retracted_by BIGINT REFERENCES users(id);

-- The catalogue's reporting precision where laboratories report finer (a clinic's own
-- change kept): TSH to 0.001 mIU/L (a suppressed TSH reads 0.004), PSA to 0.001 ng/mL
-- (ultrasensitive PSA after prostatectomy). A value is stored as typed whatever this says.
UPDATE lab_analytes SET decimals = 3 WHERE code IN ('TSH', 'PSA') AND decimals = 2;
