-- +goose Up
-- The laboratory clinician's review (C4): a lab's report attached to an order whose results
-- are withdrawn as another patient's is that other patient's document. It is kept (a record is
-- never deleted), unlinked from the order and marked here as belonging to another patient:
-- hidden from the patient's routine files list and reachable only by someone who may record
-- results, who sees it marked as such.
ALTER TABLE patient_files ADD COLUMN other_patient_at TIMESTAMP;
ALTER TABLE patient_files ADD COLUMN other_patient_by BIGINT REFERENCES users(id);
ALTER TABLE patient_files ADD COLUMN other_patient_order BIGINT;
