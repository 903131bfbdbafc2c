-- +goose Up
-- The fee reports over a date range read sums kept per day (ADR 22): a year of a busy
-- clinic's bills summed row by row took 50–190 ms. A bill's day is the clinic's calendar day
-- it was finalised on, set when it is finalised (and fixed with it); the billing store adds
-- each finalised bill to its day's sums, takes a voided one out, and moves paid with every
-- payment and refund, in the same transaction.
ALTER TABLE bills ADD COLUMN day TEXT;
-- A page of the bills of a range, day by day in the order they were finalised.
CREATE INDEX bills_day ON bills (day, finalised_at, id) WHERE day IS NOT NULL;

CREATE TABLE bill_days (
  day      TEXT PRIMARY KEY,
  bills    INTEGER NOT NULL DEFAULT 0, -- final bills
  void     INTEGER NOT NULL DEFAULT 0, -- bills finalised that day and voided since
  subtotal INTEGER NOT NULL DEFAULT 0,
  discount INTEGER NOT NULL DEFAULT 0,
  total    INTEGER NOT NULL DEFAULT 0,
  paid     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
-- Stored in key order (WITHOUT ROWID): a range of days is one sequential read.
-- Charged per service (code, or a free-text line's description as label) per day, final bills.
CREATE TABLE bill_day_services (
  day      TEXT NOT NULL,
  code     TEXT NOT NULL,
  label    TEXT NOT NULL,
  name     TEXT NOT NULL,
  quantity INTEGER NOT NULL DEFAULT 0,
  amount   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, code, label)
) WITHOUT ROWID;
-- Final bills per doctor (0: none) per day.
CREATE TABLE bill_day_doctors (
  day       TEXT NOT NULL,
  doctor_id INTEGER NOT NULL,
  bills     INTEGER NOT NULL DEFAULT 0,
  total     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, doctor_id)
) WITHOUT ROWID;

-- Bills finalised before this version: dated by their UTC day, with the trigger that fixes
-- final bills lifted for the moment and put back fixing the day too.
DROP TRIGGER bills_final_fixed;
UPDATE bills SET day = substr(finalised_at, 1, 10) WHERE finalised_at IS NOT NULL;
-- +goose StatementBegin
CREATE TRIGGER bills_final_fixed BEFORE UPDATE ON bills
WHEN OLD.status <> 'draft' AND (NEW.subtotal IS NOT OLD.subtotal OR NEW.discount IS NOT OLD.discount
  OR NEW.total IS NOT OLD.total OR NEW.patient_id IS NOT OLD.patient_id OR NEW.number IS NOT OLD.number
  OR NEW.seq IS NOT OLD.seq OR NEW.year IS NOT OLD.year OR NEW.discount_value IS NOT OLD.discount_value
  OR NEW.discount_kind IS NOT OLD.discount_kind OR NEW.currency IS NOT OLD.currency OR NEW.day IS NOT OLD.day
  OR OLD.status = 'void' OR NEW.status = 'draft')
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
INSERT INTO bill_days (day, bills, void, subtotal, discount, total, paid)
  SELECT day, SUM(CASE WHEN status = 'final' THEN 1 ELSE 0 END), SUM(CASE WHEN status = 'void' THEN 1 ELSE 0 END),
    SUM(CASE WHEN status = 'final' THEN subtotal ELSE 0 END), SUM(CASE WHEN status = 'final' THEN discount ELSE 0 END),
    SUM(CASE WHEN status = 'final' THEN total ELSE 0 END), SUM(CASE WHEN status = 'final' THEN paid ELSE 0 END)
  FROM bills WHERE day IS NOT NULL GROUP BY day;
INSERT INTO bill_day_services (day, code, label, name, quantity, amount)
  SELECT b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END, MIN(l.description), SUM(l.quantity), SUM(l.amount)
  FROM bill_lines l JOIN bills b ON b.id = l.bill_id WHERE b.status = 'final'
  GROUP BY b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END;
INSERT INTO bill_day_doctors (day, doctor_id, bills, total)
  SELECT day, COALESCE(doctor_id, 0), COUNT(*), SUM(total) FROM bills WHERE status = 'final' GROUP BY day, COALESCE(doctor_id, 0);
