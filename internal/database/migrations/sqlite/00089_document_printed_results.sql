-- +goose Up
-- The clinician's review of the release to patients, 2026-11-29 (C1, ADR 45): a document keeps
-- which results it printed (JSON: each lab order with the ids of the result rows it printed;
-- '[]' when it printed none), so a visit summary or results report is not released to the
-- patient while a value it prints is one the patient may not see. NULL: issued before this
-- migration, when it was not kept (the release then judges the visit's orders).
ALTER TABLE documents ADD COLUMN printed_results TEXT;
DROP TRIGGER documents_fixed;
-- +goose StatementBegin
CREATE TRIGGER documents_fixed BEFORE UPDATE ON documents
WHEN OLD.status <> 'issued' OR NEW.status <> 'cancelled' OR NEW.kind IS NOT OLD.kind OR NEW.year IS NOT OLD.year
  OR NEW.seq IS NOT OLD.seq OR NEW.number IS NOT OLD.number OR NEW.code IS NOT OLD.code OR NEW.title IS NOT OLD.title
  OR NEW.patient_id IS NOT OLD.patient_id OR NEW.appointment_id IS NOT OLD.appointment_id OR NEW.initials IS NOT OLD.initials
  OR NEW.birth_year IS NOT OLD.birth_year OR NEW.doctor_id IS NOT OLD.doctor_id OR NEW.doctor IS NOT OLD.doctor
  OR NEW.clinic IS NOT OLD.clinic OR NEW.signature IS NOT OLD.signature OR NEW.signature_type IS NOT OLD.signature_type
  OR NEW.fields IS NOT OLD.fields OR NEW.content IS NOT OLD.content OR NEW.content_hash IS NOT OLD.content_hash
  OR NEW.issued_at IS NOT OLD.issued_at OR NEW.language IS NOT OLD.language OR NEW.paper IS NOT OLD.paper
  OR NEW.printed_results IS NOT OLD.printed_results
BEGIN
  SELECT RAISE(ABORT, 'an issued document cannot be changed');
END;
-- +goose StatementEnd
