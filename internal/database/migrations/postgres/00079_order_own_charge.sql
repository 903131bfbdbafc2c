-- +goose Up
-- The cashier's review of 2026-11-29 (C1, M3, m5): a bill line knows whether its lab order put
-- it on the bill (or it is a charge of the test's own service the order took as its own), apart
-- from a line the desk marked by hand as a test's charge. Withdrawing the order takes only its
-- own line off a draft; a hand-marked line is only unmarked. A final bill's lines change in one
-- way only, which moves no money: a hand mark set where none was, or (a supervisor's
-- correction) taken off again. A void bill's lines never change.
ALTER TABLE bill_lines ADD COLUMN by_order INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bill_lines DISABLE TRIGGER bill_lines_fixed;
UPDATE bill_lines SET by_order = 1 WHERE lab_order_id IS NOT NULL AND service_id IS NOT NULL
  AND code = (SELECT t.service_code FROM lab_orders o JOIN lab_tests t ON t.code = o.test WHERE o.id = bill_lines.lab_order_id);
ALTER TABLE bill_lines ENABLE TRIGGER bill_lines_fixed;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION bill_lines_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  st TEXT := (SELECT status FROM bills WHERE id = CASE WHEN TG_OP = 'INSERT' THEN NEW.bill_id ELSE OLD.bill_id END);
BEGIN
  IF st <> 'draft' THEN
    IF st = 'final' AND TG_OP = 'UPDATE' AND (OLD.lab_order_id IS NULL) <> (NEW.lab_order_id IS NULL)
      AND OLD.by_order = 0 AND NEW.by_order = 0
      AND (to_jsonb(NEW) - 'lab_order_id') = (to_jsonb(OLD) - 'lab_order_id') THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'a finalised bill cannot be changed';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
-- +goose StatementEnd
