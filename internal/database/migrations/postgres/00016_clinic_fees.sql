-- +goose Up
-- Clinic fees (ADR 22): a services price list, one bill per appointment (or per walk-in
-- patient) with lines, payments and refunds. Money is whole minor units of the clinic's
-- currency (centavos, kopecks, fen; đồng has none), never floating point.

INSERT INTO permissions (name) VALUES ('manage fees'), ('record charges'), ('record payment'),
  ('override price'), ('void bill'), ('view financial reports');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, (VALUES ('manage fees'), ('record charges'), ('record payment'), ('override price'), ('void bill'),
    ('view financial reports')) AS p (name)
  WHERE roles.name = 'admin';
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, (VALUES ('record charges'), ('record payment')) AS p (name) WHERE roles.name = 'receptionist';
INSERT INTO role_permissions (role_id, permission) SELECT id, 'record charges' FROM roles WHERE name = 'doctor';

-- The services a clinic charges for; price in minor units.
CREATE TABLE services (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code       TEXT NOT NULL,
  name       TEXT NOT NULL,
  category   TEXT NOT NULL,
  price      BIGINT NOT NULL CHECK (price >= 0),
  active     BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  version    INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX services_code ON services (code);

-- Bills: a draft takes charges; finalising numbers it (gap-free per year) and freezes its
-- lines and totals; a wrong final bill is voided with a reason and replaced, never deleted.
-- paid is what payments less refunds have brought, kept with the bill so that one
-- conditional update decides whether a payment fits (two cashiers never overpay).
CREATE TABLE bills (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  appointment_id  BIGINT REFERENCES appointments(id),
  doctor_id       BIGINT REFERENCES users(id),
  status          TEXT NOT NULL CHECK (status IN ('draft', 'final', 'void')),
  currency        TEXT NOT NULL,
  year            INTEGER,
  seq             INTEGER,
  number          TEXT,
  discount_kind   TEXT NOT NULL DEFAULT '' CHECK (discount_kind IN ('', 'amount', 'percent')),
  discount_value  BIGINT NOT NULL DEFAULT 0,
  discount_reason TEXT NOT NULL DEFAULT '',
  subtotal        BIGINT NOT NULL DEFAULT 0,
  discount        BIGINT NOT NULL DEFAULT 0,
  total           BIGINT NOT NULL DEFAULT 0,
  paid            BIGINT NOT NULL DEFAULT 0 CHECK (paid >= 0 AND (status = 'draft' OR paid <= total)),
  notes           TEXT NOT NULL DEFAULT '',
  finalised_at    TIMESTAMPTZ,
  finalised_by    BIGINT REFERENCES users(id),
  void_reason     TEXT NOT NULL DEFAULT '',
  voided_at       TIMESTAMPTZ,
  voided_by       BIGINT REFERENCES users(id),
  replaces_id     BIGINT REFERENCES bills(id),
  created_at      TIMESTAMPTZ NOT NULL,
  created_by      BIGINT REFERENCES users(id),
  updated_at      TIMESTAMPTZ NOT NULL,
  updated_by      BIGINT REFERENCES users(id),
  version         INTEGER NOT NULL DEFAULT 1
);
-- One bill in force per appointment: a voided one makes room for its replacement.
CREATE UNIQUE INDEX bills_appointment ON bills (appointment_id) WHERE appointment_id IS NOT NULL AND status <> 'void';
CREATE UNIQUE INDEX bills_number ON bills (year, seq) WHERE seq IS NOT NULL;
CREATE INDEX bills_patient ON bills (patient_id, id);
CREATE INDEX bills_finalised ON bills (finalised_at) WHERE finalised_at IS NOT NULL;
CREATE INDEX bills_open ON bills (status, id) WHERE status = 'final' AND paid < total;

CREATE TABLE bill_lines (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bill_id         BIGINT NOT NULL REFERENCES bills(id),
  service_id      BIGINT REFERENCES services(id),
  code            TEXT NOT NULL DEFAULT '',
  description     TEXT NOT NULL,
  category        TEXT NOT NULL,
  quantity        INTEGER NOT NULL CHECK (quantity > 0),
  unit_price      BIGINT NOT NULL CHECK (unit_price >= 0),
  discount_kind   TEXT NOT NULL DEFAULT '' CHECK (discount_kind IN ('', 'amount', 'percent')),
  discount_value  BIGINT NOT NULL DEFAULT 0,
  discount_reason TEXT NOT NULL DEFAULT '',
  discount        BIGINT NOT NULL DEFAULT 0,
  amount          BIGINT NOT NULL,
  added_by        BIGINT REFERENCES users(id),
  added_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX bill_lines_bill ON bill_lines (bill_id, id);
CREATE INDEX bill_lines_service ON bill_lines (service_id);

-- Payments (kind 'payment') and refunds (kind 'refund'), amounts positive.
CREATE TABLE payments (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bill_id     BIGINT NOT NULL REFERENCES bills(id),
  kind        TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
  method      TEXT NOT NULL,
  reference   TEXT NOT NULL DEFAULT '',
  amount      BIGINT NOT NULL CHECK (amount > 0),
  tendered    BIGINT,
  reason      TEXT NOT NULL DEFAULT '',
  receipt     TEXT NOT NULL,
  received_by BIGINT REFERENCES users(id),
  received_at TIMESTAMPTZ NOT NULL,
  day         TEXT NOT NULL
);
CREATE INDEX payments_bill ON payments (bill_id, id);
CREATE INDEX payments_day ON payments (day, received_by);

-- A final or void bill's lines and money are fixed, whoever writes to the database.
-- +goose StatementBegin
CREATE FUNCTION bills_final_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' THEN
      RAISE EXCEPTION 'a finalised bill cannot be deleted';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status <> 'draft' AND (NEW.subtotal IS DISTINCT FROM OLD.subtotal OR NEW.discount IS DISTINCT FROM OLD.discount
    OR NEW.total IS DISTINCT FROM OLD.total OR NEW.patient_id IS DISTINCT FROM OLD.patient_id
    OR NEW.number IS DISTINCT FROM OLD.number OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.year IS DISTINCT FROM OLD.year
    OR NEW.discount_value IS DISTINCT FROM OLD.discount_value OR NEW.discount_kind IS DISTINCT FROM OLD.discount_kind
    OR NEW.currency IS DISTINCT FROM OLD.currency OR OLD.status = 'void' OR NEW.status = 'draft') THEN
    RAISE EXCEPTION 'a finalised bill cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER bills_final_fixed BEFORE UPDATE OR DELETE ON bills
  FOR EACH ROW EXECUTE FUNCTION bills_final_fixed();

-- +goose StatementBegin
CREATE FUNCTION bill_lines_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT status FROM bills WHERE id = CASE WHEN TG_OP = 'INSERT' THEN NEW.bill_id ELSE OLD.bill_id END) <> 'draft' THEN
    RAISE EXCEPTION 'a finalised bill cannot be changed';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER bill_lines_fixed BEFORE INSERT OR UPDATE OR DELETE ON bill_lines
  FOR EACH ROW EXECUTE FUNCTION bill_lines_fixed();

-- Payments are never changed or removed: a mistake is refunded.
-- +goose StatementBegin
CREATE FUNCTION payments_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a payment cannot be changed';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER payments_fixed BEFORE UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_fixed();
