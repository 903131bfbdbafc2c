-- +goose Up
-- A final bill's lines stay as they were, with one exception that changes no amount: which lab
-- order a one-unit line added by hand charges, set once where none was (ADR 41; the clinic
-- manager's run, 2026-11-29: a test charged as a free-text line stayed "not charged" for good).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION bill_lines_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT status FROM bills WHERE id = CASE WHEN TG_OP = 'INSERT' THEN NEW.bill_id ELSE OLD.bill_id END) <> 'draft' THEN
    IF TG_OP = 'UPDATE' AND OLD.lab_order_id IS NULL AND NEW.lab_order_id IS NOT NULL
      AND (to_jsonb(NEW) - 'lab_order_id') = (to_jsonb(OLD) - 'lab_order_id') THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'a finalised bill cannot be changed';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
-- +goose StatementEnd
