-- +goose Up
-- Refunds that settle and drawers a cashier can count (ADR 27).
--
-- A refund for a service not given credits the bill as well as returning the money: the
-- bill's credited sum rises by what paid falls, so the patient owes no more than before.
-- A refund marked "still owed" (money given back to be taken another way) credits nothing.
ALTER TABLE bills ADD COLUMN credited BIGINT NOT NULL DEFAULT 0 CHECK (credited >= 0);
DROP INDEX bills_open;
-- The column on the left, as SQLite writes the query's own term before matching it to the
-- index's: written the other way round, SQLite never uses the index and reads every bill.
CREATE INDEX bills_open ON bills (status, id) WHERE status = 'final' AND total > paid + credited;
ALTER TABLE bill_days ADD COLUMN credited BIGINT NOT NULL DEFAULT 0;
-- The front desk's bills list: drafts and void bills each by their own small index (final
-- ones owing come from bills_open; a plain (status, id) index would take those queries away
-- from it), and by the day a bill was written, newest first.
CREATE INDEX bills_drafts ON bills (id) WHERE status = 'draft';
CREATE INDEX bills_void ON bills (id) WHERE status = 'void';
CREATE INDEX bills_created ON bills (created_at);

-- A cashier's drawer is counted shift by shift: the float it opened with, then every cash
-- movement of the shift. A refund's cash leaves the drawer it is paid from (drawer_id),
-- which need not be the drawer of whoever authorised it.
CREATE TABLE drawer_shifts (
  id            INTEGER PRIMARY KEY,
  cashier_id    BIGINT NOT NULL REFERENCES users(id),
  opened_at     TIMESTAMP NOT NULL,
  opened_by     BIGINT REFERENCES users(id),
  opening_float BIGINT NOT NULL DEFAULT 0 CHECK (opening_float >= 0),
  closed_at     TIMESTAMP,
  closed_by     BIGINT REFERENCES users(id),
  expected      BIGINT,
  counted       BIGINT CHECK (counted >= 0),
  note          TEXT NOT NULL DEFAULT '',
  version       INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX drawer_shifts_open ON drawer_shifts (cashier_id) WHERE closed_at IS NULL;
CREATE INDEX drawer_shifts_opened ON drawer_shifts (opened_at);

ALTER TABLE payments ADD COLUMN credit BIGINT NOT NULL DEFAULT 0 CHECK (credit >= 0);
ALTER TABLE payments ADD COLUMN line_id BIGINT REFERENCES bill_lines(id);
ALTER TABLE payments ADD COLUMN drawer_id BIGINT REFERENCES users(id);
-- Who paid, when not the patient (a parent, an employer): the receipt names them.
ALTER TABLE payments ADD COLUMN payer TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN shift_id BIGINT REFERENCES drawer_shifts(id);
CREATE INDEX payments_shift ON payments (shift_id, id);

INSERT INTO permissions (name) VALUES ('cash up own drawer');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, 'cash up own drawer' FROM roles WHERE name IN ('admin', 'receptionist');
