-- +goose Up
-- Clinic fees (ADR 22): a services price list, one bill per appointment (or per walk-in
-- patient) with lines, payments and refunds. Money is whole minor units of the clinic's
-- currency (centavos, kopecks, fen; đồng has none), never floating point.

INSERT INTO permissions (name) VALUES ('manage fees'), ('record charges'), ('record payment'),
  ('override price'), ('void bill'), ('view financial reports');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, (SELECT 'manage fees' AS name UNION ALL SELECT 'record charges' UNION ALL SELECT 'record payment'
    UNION ALL SELECT 'override price' UNION ALL SELECT 'void bill' UNION ALL SELECT 'view financial reports') AS p
  WHERE roles.name = 'admin';
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, (SELECT 'record charges' AS name UNION ALL SELECT 'record payment') AS p WHERE roles.name = 'receptionist';
INSERT INTO role_permissions (role_id, permission) SELECT id, 'record charges' FROM roles WHERE name = 'doctor';

-- The services a clinic charges for; price in minor units.
CREATE TABLE services (
  id         INTEGER PRIMARY KEY,
  code       TEXT NOT NULL,
  name       TEXT NOT NULL,
  category   TEXT NOT NULL,
  price      INTEGER NOT NULL CHECK (price >= 0),
  active     BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  version    INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX services_code ON services (code);

-- Bills: a draft takes charges; finalising numbers it (gap-free per year) and freezes its
-- lines and totals; a wrong final bill is voided with a reason and replaced, never deleted.
-- paid is what payments less refunds have brought, kept with the bill so that one
-- conditional update decides whether a payment fits (two cashiers never overpay).
CREATE TABLE bills (
  id              INTEGER PRIMARY KEY,
  patient_id      INTEGER NOT NULL REFERENCES patients(id),
  appointment_id  INTEGER REFERENCES appointments(id),
  doctor_id       INTEGER REFERENCES users(id),
  status          TEXT NOT NULL CHECK (status IN ('draft', 'final', 'void')),
  currency        TEXT NOT NULL,
  year            INTEGER,
  seq             INTEGER,
  number          TEXT,
  discount_kind   TEXT NOT NULL DEFAULT '' CHECK (discount_kind IN ('', 'amount', 'percent')),
  discount_value  INTEGER NOT NULL DEFAULT 0,
  discount_reason TEXT NOT NULL DEFAULT '',
  subtotal        INTEGER NOT NULL DEFAULT 0,
  discount        INTEGER NOT NULL DEFAULT 0,
  total           INTEGER NOT NULL DEFAULT 0,
  paid            INTEGER NOT NULL DEFAULT 0 CHECK (paid >= 0 AND (status = 'draft' OR paid <= total)),
  notes           TEXT NOT NULL DEFAULT '',
  finalised_at    TIMESTAMP,
  finalised_by    INTEGER REFERENCES users(id),
  void_reason     TEXT NOT NULL DEFAULT '',
  voided_at       TIMESTAMP,
  voided_by       INTEGER REFERENCES users(id),
  replaces_id     INTEGER REFERENCES bills(id),
  created_at      TIMESTAMP NOT NULL,
  created_by      INTEGER REFERENCES users(id),
  updated_at      TIMESTAMP NOT NULL,
  updated_by      INTEGER REFERENCES users(id),
  version         INTEGER NOT NULL DEFAULT 1
);
-- One bill in force per appointment: a voided one makes room for its replacement.
CREATE UNIQUE INDEX bills_appointment ON bills (appointment_id) WHERE appointment_id IS NOT NULL AND status <> 'void';
CREATE UNIQUE INDEX bills_number ON bills (year, seq) WHERE seq IS NOT NULL;
CREATE INDEX bills_patient ON bills (patient_id, id);
CREATE INDEX bills_finalised ON bills (finalised_at) WHERE finalised_at IS NOT NULL;
CREATE INDEX bills_open ON bills (status, id) WHERE status = 'final' AND paid < total;

CREATE TABLE bill_lines (
  id              INTEGER PRIMARY KEY,
  bill_id         INTEGER NOT NULL REFERENCES bills(id),
  service_id      INTEGER REFERENCES services(id),
  code            TEXT NOT NULL DEFAULT '',
  description     TEXT NOT NULL,
  category        TEXT NOT NULL,
  quantity        INTEGER NOT NULL CHECK (quantity > 0),
  unit_price      INTEGER NOT NULL CHECK (unit_price >= 0),
  discount_kind   TEXT NOT NULL DEFAULT '' CHECK (discount_kind IN ('', 'amount', 'percent')),
  discount_value  INTEGER NOT NULL DEFAULT 0,
  discount_reason TEXT NOT NULL DEFAULT '',
  discount        INTEGER NOT NULL DEFAULT 0,
  amount          INTEGER NOT NULL,
  added_by        INTEGER REFERENCES users(id),
  added_at        TIMESTAMP NOT NULL
);
CREATE INDEX bill_lines_bill ON bill_lines (bill_id, id);
CREATE INDEX bill_lines_service ON bill_lines (service_id);

-- Payments (kind 'payment') and refunds (kind 'refund'), amounts positive.
CREATE TABLE payments (
  id          INTEGER PRIMARY KEY,
  bill_id     INTEGER NOT NULL REFERENCES bills(id),
  kind        TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
  method      TEXT NOT NULL,
  reference   TEXT NOT NULL DEFAULT '',
  amount      INTEGER NOT NULL CHECK (amount > 0),
  tendered    INTEGER,
  reason      TEXT NOT NULL DEFAULT '',
  receipt     TEXT NOT NULL,
  received_by INTEGER REFERENCES users(id),
  received_at TIMESTAMP NOT NULL,
  day         TEXT NOT NULL
);
CREATE INDEX payments_bill ON payments (bill_id, id);
CREATE INDEX payments_day ON payments (day, received_by);

-- A final or void bill's lines and money are fixed, whoever writes to the database.
-- +goose StatementBegin
CREATE TRIGGER bills_final_fixed BEFORE UPDATE ON bills
WHEN OLD.status <> 'draft' AND (NEW.subtotal IS NOT OLD.subtotal OR NEW.discount IS NOT OLD.discount
  OR NEW.total IS NOT OLD.total OR NEW.patient_id IS NOT OLD.patient_id OR NEW.number IS NOT OLD.number
  OR NEW.seq IS NOT OLD.seq OR NEW.year IS NOT OLD.year OR NEW.discount_value IS NOT OLD.discount_value
  OR NEW.discount_kind IS NOT OLD.discount_kind OR NEW.currency IS NOT OLD.currency
  OR OLD.status = 'void' OR NEW.status = 'draft')
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER bills_not_deleted BEFORE DELETE ON bills WHEN OLD.status <> 'draft'
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be deleted');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER bill_lines_insert_fixed BEFORE INSERT ON bill_lines
WHEN (SELECT status FROM bills WHERE id = NEW.bill_id) <> 'draft'
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER bill_lines_update_fixed BEFORE UPDATE ON bill_lines
WHEN (SELECT status FROM bills WHERE id = OLD.bill_id) <> 'draft'
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER bill_lines_delete_fixed BEFORE DELETE ON bill_lines
WHEN (SELECT status FROM bills WHERE id = OLD.bill_id) <> 'draft'
BEGIN
  SELECT RAISE(ABORT, 'a finalised bill cannot be changed');
END;
-- +goose StatementEnd
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

