-- +goose Up
-- The prescriber's profile: specialisations and licences (JSON arrays), and pictures.
ALTER TABLE users ADD COLUMN specialisations TEXT NOT NULL DEFAULT '[]';
ALTER TABLE users ADD COLUMN licences TEXT NOT NULL DEFAULT '[]';

-- A user's avatar and drawn signature, kept in the database so every instance sees them.
CREATE TABLE user_images (
  user_id      BIGINT NOT NULL REFERENCES users(id),
  kind         TEXT NOT NULL,
  content_type TEXT NOT NULL,
  data         BYTEA NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (user_id, kind)
);

-- Clinic-wide settings an admin sets (the prescription header): one JSON value per key.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  updated_by BIGINT REFERENCES users(id),
  version    INTEGER NOT NULL DEFAULT 1
);

INSERT INTO permissions (name) VALUES ('manage settings');
INSERT INTO role_permissions (role_id, permission) SELECT id, 'manage settings' FROM roles WHERE name = 'admin';

-- The clinic's medicine catalogue; terms is the folded text that word search runs over.
CREATE TABLE medicines (
  id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  brand        TEXT NOT NULL DEFAULT '',
  generic_name TEXT NOT NULL,
  strength     TEXT NOT NULL DEFAULT '',
  form         TEXT NOT NULL DEFAULT '',
  unit         TEXT NOT NULL DEFAULT '',
  terms        TEXT NOT NULL,
  active       BOOLEAN NOT NULL DEFAULT TRUE,
  created_at   TIMESTAMPTZ NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL,
  version      INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX medicines_identity ON medicines (generic_name, brand, strength, form);

-- Prescriptions: of a visit (kind 'visit': draft -> issued) or written on the blank form
-- (kind 'blank', patient optional: ordered -> dispensed). Printing issues one: its lines,
-- the prescriber's details and signature are then fixed; it can only be cancelled.
CREATE TABLE prescriptions (
  id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind           TEXT NOT NULL,
  appointment_id BIGINT REFERENCES appointments(id),
  patient_id     BIGINT REFERENCES patients(id),
  status         TEXT NOT NULL,
  items          TEXT NOT NULL,
  notes          TEXT NOT NULL DEFAULT '',
  prescriber_id  BIGINT REFERENCES users(id),
  prescriber     TEXT NOT NULL DEFAULT '',
  signature_type TEXT NOT NULL DEFAULT '',
  signature      BYTEA,
  issued_at      TIMESTAMPTZ,
  cancel_reason  TEXT NOT NULL DEFAULT '',
  cancelled_at   TIMESTAMPTZ,
  replaces_id    BIGINT REFERENCES prescriptions(id),
  created_at     TIMESTAMPTZ NOT NULL,
  created_by     BIGINT REFERENCES users(id),
  updated_at     TIMESTAMPTZ NOT NULL,
  updated_by     BIGINT REFERENCES users(id),
  version        INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX prescriptions_patient ON prescriptions (patient_id, id);
CREATE INDEX prescriptions_appointment ON prescriptions (appointment_id, id);
CREATE INDEX prescriptions_creator ON prescriptions (created_by, kind, id);

-- +goose StatementBegin
CREATE FUNCTION prescriptions_issued_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IN ('issued', 'dispensed', 'cancelled') AND (NEW.items IS DISTINCT FROM OLD.items
    OR NEW.prescriber IS DISTINCT FROM OLD.prescriber OR NEW.signature IS DISTINCT FROM OLD.signature
    OR NEW.patient_id IS DISTINCT FROM OLD.patient_id OR OLD.status = 'cancelled') THEN
    RAISE EXCEPTION 'an issued prescription cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER prescriptions_issued_fixed BEFORE UPDATE ON prescriptions
  FOR EACH ROW EXECUTE FUNCTION prescriptions_issued_fixed();
