-- +goose Up
-- Issue 55 (ADR 27, ADR 41): a refund for a service not given credits the bill first and gives
-- cash back only for what was paid beyond the bill's new total, so a credit on an unpaid or
-- partly paid bill moves no cash: a refund row of amount 0 (a credit note). SQLite cannot
-- change a column's check, so the table is written again with amount >= 0.
CREATE TABLE payments_new (
  id          INTEGER PRIMARY KEY,
  bill_id     INTEGER NOT NULL REFERENCES bills(id),
  kind        TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
  method      TEXT NOT NULL,
  reference   TEXT NOT NULL DEFAULT '',
  amount      INTEGER NOT NULL CHECK (amount > 0 OR (amount = 0 AND kind = 'refund' AND credit > 0)),
  tendered    INTEGER,
  reason      TEXT NOT NULL DEFAULT '',
  receipt     TEXT NOT NULL,
  received_by INTEGER REFERENCES users(id),
  received_at TIMESTAMP NOT NULL,
  day         TEXT NOT NULL,
  credit      BIGINT NOT NULL DEFAULT 0 CHECK (credit >= 0),
  line_id     BIGINT REFERENCES bill_lines(id),
  drawer_id   BIGINT REFERENCES users(id),
  payer       TEXT NOT NULL DEFAULT '',
  shift_id    BIGINT REFERENCES drawer_shifts(id)
);
INSERT INTO payments_new (id, bill_id, kind, method, reference, amount, tendered, reason, receipt, received_by, received_at, day,
  credit, line_id, drawer_id, payer, shift_id)
  SELECT id, bill_id, kind, method, reference, amount, tendered, reason, receipt, received_by, received_at, day,
  credit, line_id, drawer_id, payer, shift_id FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE INDEX payments_bill ON payments (bill_id, id);
CREATE INDEX payments_day ON payments (day, received_by);
CREATE UNIQUE INDEX payments_receipt ON payments (receipt);
CREATE INDEX payments_shift ON payments (shift_id, id);
-- Payments are never changed or removed: a mistake is refunded.
-- +goose StatementBegin
CREATE TRIGGER payments_fixed BEFORE UPDATE ON payments
BEGIN
  SELECT RAISE(ABORT, 'a payment cannot be changed');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER payments_not_deleted BEFORE DELETE ON payments
BEGIN
  SELECT RAISE(ABORT, 'a payment cannot be changed');
END;
-- +goose StatementEnd

