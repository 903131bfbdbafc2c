-- +goose Up
-- Issue 55 (ADR 27, ADR 41): a refund for a service not given credits the bill first and gives
-- cash back only for what was paid beyond the bill's new total, so a credit on an unpaid or
-- partly paid bill moves no cash: a refund row of amount 0 (a credit note).
ALTER TABLE payments DROP CONSTRAINT payments_amount_check;
ALTER TABLE payments ADD CONSTRAINT payments_amount_check CHECK (amount > 0 OR (amount = 0 AND kind = 'refund' AND credit > 0));

