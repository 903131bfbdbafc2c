-- +goose Up
-- The clinician's review of the release to patients, 2026-11-29 (C1, ADR 45): a document keeps
-- which results it printed (JSON: each lab order with the ids of the result rows it printed;
-- '[]' when it printed none), so a visit summary or results report is not released to the
-- patient while a value it prints is one the patient may not see. NULL: issued before this
-- migration, when it was not kept (the release then judges the visit's orders).
ALTER TABLE documents ADD COLUMN printed_results TEXT;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION documents_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'an issued document cannot be deleted';
  END IF;
  IF OLD.status <> 'issued' OR NEW.status <> 'cancelled' OR (NEW.kind, NEW.year, NEW.seq, NEW.number, NEW.code, NEW.title,
    NEW.patient_id, NEW.appointment_id, NEW.initials, NEW.birth_year, NEW.doctor_id, NEW.doctor, NEW.clinic, NEW.signature,
    NEW.signature_type, NEW.fields, NEW.content, NEW.content_hash, NEW.issued_at, NEW.language, NEW.paper, NEW.printed_results)
    IS DISTINCT FROM (OLD.kind, OLD.year, OLD.seq, OLD.number, OLD.code, OLD.title,
    OLD.patient_id, OLD.appointment_id, OLD.initials, OLD.birth_year, OLD.doctor_id, OLD.doctor, OLD.clinic, OLD.signature,
    OLD.signature_type, OLD.fields, OLD.content, OLD.content_hash, OLD.issued_at, OLD.language, OLD.paper, OLD.printed_results) THEN
    RAISE EXCEPTION 'an issued document cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
-- +goose StatementEnd
