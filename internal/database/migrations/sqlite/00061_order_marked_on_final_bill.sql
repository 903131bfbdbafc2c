-- +goose Up
-- A final bill's lines stay as they were, with one exception that changes no amount: which lab
-- order a one-unit line added by hand charges, set once where none was (ADR 41; the clinic
-- manager's run, 2026-11-29: a test charged as a free-text line stayed "not charged" for good).
DROP TRIGGER bill_lines_update_fixed;
-- +goose StatementBegin
CREATE TRIGGER bill_lines_update_fixed BEFORE UPDATE ON bill_lines
WHEN (SELECT status FROM bills WHERE id = OLD.bill_id) <> 'draft'
  AND NOT (OLD.lab_order_id IS NULL AND NEW.lab_order_id IS NOT NULL
    AND NEW.id IS OLD.id AND NEW.bill_id IS OLD.bill_id AND NEW.service_id IS OLD.service_id AND NEW.code IS OLD.code
    AND NEW.description IS OLD.description AND NEW.category IS OLD.category AND NEW.quantity IS OLD.quantity
    AND NEW.unit_price IS OLD.unit_price AND NEW.discount_kind IS OLD.discount_kind AND NEW.discount_value IS OLD.discount_value
    AND NEW.discount_reason IS OLD.discount_reason AND NEW.discount IS OLD.discount AND NEW.amount IS OLD.amount
    AND NEW.added_by IS OLD.added_by AND NEW.added_at IS OLD.added_at)
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
