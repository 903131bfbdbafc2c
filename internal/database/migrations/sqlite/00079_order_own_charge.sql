-- +goose Up
-- The cashier's review of 2026-11-29 (C1, M3, m5): a bill line knows whether its lab order put
-- it on the bill (or it is a charge of the test's own service the order took as its own), apart
-- from a line the desk marked by hand as a test's charge. Withdrawing the order takes only its
-- own line off a draft; a hand-marked line is only unmarked. A final bill's lines change in one
-- way only, which moves no money: a hand mark set where none was, or (a supervisor's
-- correction) taken off again. A void bill's lines never change.
DROP TRIGGER bill_lines_update_fixed;
ALTER TABLE bill_lines ADD COLUMN by_order INTEGER NOT NULL DEFAULT 0;
UPDATE bill_lines SET by_order = 1 WHERE lab_order_id IS NOT NULL AND service_id IS NOT NULL
  AND code = (SELECT t.service_code FROM lab_orders o JOIN lab_tests t ON t.code = o.test WHERE o.id = bill_lines.lab_order_id);
-- +goose StatementBegin
CREATE TRIGGER bill_lines_update_fixed BEFORE UPDATE ON bill_lines
WHEN (SELECT status FROM bills WHERE id = OLD.bill_id) <> 'draft'
  AND NOT ((SELECT status FROM bills WHERE id = OLD.bill_id) = 'final'
    AND (OLD.lab_order_id IS NULL) <> (NEW.lab_order_id IS NULL) AND OLD.by_order = 0 AND NEW.by_order = 0
    AND NEW.id IS OLD.id AND NEW.bill_id IS OLD.bill_id AND NEW.service_id IS OLD.service_id AND NEW.code IS OLD.code
    AND NEW.description IS OLD.description AND NEW.category IS OLD.category AND NEW.quantity IS OLD.quantity
    AND NEW.unit_price IS OLD.unit_price AND NEW.discount_kind IS OLD.discount_kind AND NEW.discount_value IS OLD.discount_value
    AND NEW.discount_reason IS OLD.discount_reason AND NEW.discount IS OLD.discount AND NEW.amount IS OLD.amount
    AND NEW.added_by IS OLD.added_by AND NEW.added_at IS OLD.added_at)
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
