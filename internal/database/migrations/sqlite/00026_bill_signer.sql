-- +goose Up
-- A statement of fees carries its doctor as the bill was finalised, like a prescription and a
-- document carry theirs as they were issued (one signature policy): the doctor's details
-- (signer, JSON) and drawn signature are copied at finalising and fixed with the bill. Bills
-- finalised before this version keep none and print the doctor as their profile is.
ALTER TABLE bills ADD COLUMN signer TEXT;
ALTER TABLE bills ADD COLUMN signature_type TEXT NOT NULL DEFAULT '';
ALTER TABLE bills ADD COLUMN signature BLOB;
DROP TRIGGER bills_final_fixed;
-- +goose StatementBegin
CREATE TRIGGER bills_final_fixed BEFORE UPDATE ON bills
WHEN OLD.status <> 'draft' AND (NEW.subtotal IS NOT OLD.subtotal OR NEW.discount IS NOT OLD.discount
  OR NEW.total IS NOT OLD.total OR NEW.patient_id IS NOT OLD.patient_id OR NEW.number IS NOT OLD.number
  OR NEW.seq IS NOT OLD.seq OR NEW.year IS NOT OLD.year OR NEW.discount_value IS NOT OLD.discount_value
  OR NEW.discount_kind IS NOT OLD.discount_kind OR NEW.currency IS NOT OLD.currency OR NEW.day IS NOT OLD.day
  OR NEW.signer IS NOT OLD.signer OR NEW.signature_type IS NOT OLD.signature_type OR NEW.signature IS NOT OLD.signature
  OR OLD.status = 'void' OR NEW.status = 'draft')
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
