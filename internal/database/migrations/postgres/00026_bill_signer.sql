-- +goose Up
-- A statement of fees carries its doctor as the bill was finalised, like a prescription and a
-- document carry theirs as they were issued (one signature policy): the doctor's details
-- (signer, JSON) and drawn signature are copied at finalising and fixed with the bill. Bills
-- finalised before this version keep none and print the doctor as their profile is.
ALTER TABLE bills ADD COLUMN signer TEXT;
ALTER TABLE bills ADD COLUMN signature_type TEXT NOT NULL DEFAULT '';
ALTER TABLE bills ADD COLUMN signature BYTEA;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION bills_final_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' THEN
      RAISE EXCEPTION 'a finalised bill cannot be deleted';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status <> 'draft' AND (NEW.subtotal IS DISTINCT FROM OLD.subtotal OR NEW.discount IS DISTINCT FROM OLD.discount
    OR NEW.total IS DISTINCT FROM OLD.total OR NEW.patient_id IS DISTINCT FROM OLD.patient_id
    OR NEW.number IS DISTINCT FROM OLD.number OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.year IS DISTINCT FROM OLD.year
    OR NEW.discount_value IS DISTINCT FROM OLD.discount_value OR NEW.discount_kind IS DISTINCT FROM OLD.discount_kind
    OR NEW.currency IS DISTINCT FROM OLD.currency OR NEW.day IS DISTINCT FROM OLD.day
    OR NEW.signer IS DISTINCT FROM OLD.signer OR NEW.signature_type IS DISTINCT FROM OLD.signature_type
    OR NEW.signature IS DISTINCT FROM OLD.signature
    OR OLD.status = 'void' OR NEW.status = 'draft') THEN
    RAISE EXCEPTION 'a finalised bill cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
-- +goose StatementEnd
