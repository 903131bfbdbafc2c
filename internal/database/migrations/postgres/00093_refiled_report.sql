-- +goose Up
-- The clinician's review of the refiling (2026-11-29): a lab's report moved to the right
-- patient with values refiled from another patient's record is amended (ISO 15189 §7.4.1.7):
-- marked here as refiled from another patient's record, renamed neutrally (the name it was
-- uploaded with, which may carry the first patient's identity, kept in name_before_refiling)
-- and never deleted.
ALTER TABLE patient_files ADD COLUMN refiled_at TIMESTAMP;
ALTER TABLE patient_files ADD COLUMN refiled_by BIGINT REFERENCES users(id);
ALTER TABLE patient_files ADD COLUMN name_before_refiling TEXT;
