-- +goose Up
-- A result retracted because it was recorded against the wrong patient leaves the right
-- patient without it: a task until someone finds whose it was (the clinician's review of
-- withdrawals, M6). The retraction's category is kept on the row, and who resolved the task,
-- when and how.
ALTER TABLE lab_results ADD COLUMN retract_category TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_results ADD COLUMN misfiled_resolved_at TIMESTAMP;
ALTER TABLE lab_results ADD COLUMN misfiled_resolved_by BIGINT REFERENCES users(id);
ALTER TABLE lab_results ADD COLUMN misfiled_note TEXT NOT NULL DEFAULT '';
-- The open tasks, oldest first.
CREATE INDEX lab_results_misfiled ON lab_results (retracted_at, id) WHERE retract_category = 'wrong_patient' AND misfiled_resolved_at IS NULL;

-- Wrong-patient retractions before this, where their alert kept the category.
UPDATE lab_results SET retract_category = 'wrong_patient'
  WHERE status = 'entered_in_error' AND id IN (SELECT result_id FROM critical_alerts WHERE withdrawn_category = 'wrong_patient');
