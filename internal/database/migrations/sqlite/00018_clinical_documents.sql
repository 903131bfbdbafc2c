-- +goose Up
-- Clinical documents (ADR 23): clinic templates written in a small markup with
-- placeholders and declared fields, and the documents issued from them. An issued document
-- keeps its rendered content, the doctor's details and drawn signature; it is numbered
-- gap-free per kind and year and can only be cancelled, never changed or deleted. Its code
-- (80 random bits) lets the receiver check it at /verify/{code}.

INSERT INTO permissions (name) VALUES ('issue documents'), ('manage templates');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, (SELECT 'issue documents' AS name UNION ALL SELECT 'manage templates') AS p
  WHERE roles.name IN ('admin', 'doctor');

CREATE TABLE document_templates (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  kind       TEXT NOT NULL,
  language   TEXT NOT NULL,
  paper      TEXT NOT NULL,
  body       TEXT NOT NULL,
  fields     TEXT NOT NULL DEFAULT '[]',
  starter    TEXT NOT NULL DEFAULT '',
  active     BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  updated_by INTEGER REFERENCES users(id),
  version    INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX document_templates_name ON document_templates (language, name);

CREATE TABLE documents (
  id             INTEGER PRIMARY KEY,
  kind           TEXT NOT NULL,
  year           INTEGER NOT NULL,
  seq            INTEGER NOT NULL,
  number         TEXT NOT NULL,
  code           TEXT NOT NULL,
  template_id    INTEGER REFERENCES document_templates(id),
  title          TEXT NOT NULL,
  language       TEXT NOT NULL,
  paper          TEXT NOT NULL,
  patient_id     INTEGER NOT NULL REFERENCES patients(id),
  appointment_id INTEGER REFERENCES appointments(id),
  initials       TEXT NOT NULL,
  birth_year     INTEGER,
  doctor_id      INTEGER NOT NULL REFERENCES users(id),
  doctor         TEXT NOT NULL,
  clinic         TEXT NOT NULL,
  signature_type TEXT NOT NULL DEFAULT '',
  signature      BLOB,
  fields         TEXT NOT NULL,
  content        TEXT NOT NULL,
  content_hash   TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'issued',
  issued_at      TIMESTAMP NOT NULL,
  cancel_reason  TEXT NOT NULL DEFAULT '',
  cancelled_at   TIMESTAMP,
  cancelled_by   INTEGER REFERENCES users(id),
  version        INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX documents_number ON documents (kind, year, seq);
CREATE UNIQUE INDEX documents_code ON documents (code);
CREATE INDEX documents_patient ON documents (patient_id, id);
CREATE INDEX documents_appointment ON documents (appointment_id, id);

-- An issued document is fixed: only its cancellation may be written, once.
-- +goose StatementBegin
CREATE TRIGGER documents_fixed BEFORE UPDATE ON documents
WHEN OLD.status <> 'issued' OR NEW.status <> 'cancelled' OR NEW.kind IS NOT OLD.kind OR NEW.year IS NOT OLD.year
  OR NEW.seq IS NOT OLD.seq OR NEW.number IS NOT OLD.number OR NEW.code IS NOT OLD.code OR NEW.title IS NOT OLD.title
  OR NEW.patient_id IS NOT OLD.patient_id OR NEW.appointment_id IS NOT OLD.appointment_id OR NEW.initials IS NOT OLD.initials
  OR NEW.birth_year IS NOT OLD.birth_year OR NEW.doctor_id IS NOT OLD.doctor_id OR NEW.doctor IS NOT OLD.doctor
  OR NEW.clinic IS NOT OLD.clinic OR NEW.signature IS NOT OLD.signature OR NEW.signature_type IS NOT OLD.signature_type
  OR NEW.fields IS NOT OLD.fields OR NEW.content IS NOT OLD.content OR NEW.content_hash IS NOT OLD.content_hash
  OR NEW.issued_at IS NOT OLD.issued_at OR NEW.language IS NOT OLD.language OR NEW.paper IS NOT OLD.paper
BEGIN
  SELECT RAISE(ABORT, 'an issued document cannot be changed');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER documents_not_deleted BEFORE DELETE ON documents
BEGIN
  SELECT RAISE(ABORT, 'an issued document cannot be deleted');
END;
-- +goose StatementEnd
