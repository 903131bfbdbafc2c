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
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       TEXT NOT NULL,
  kind       TEXT NOT NULL,
  language   TEXT NOT NULL,
  paper      TEXT NOT NULL,
  body       TEXT NOT NULL,
  fields     TEXT NOT NULL DEFAULT '[]',
  starter    TEXT NOT NULL DEFAULT '',
  active     BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  updated_by BIGINT REFERENCES users(id),
  version    INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX document_templates_name ON document_templates (language, name);

CREATE TABLE documents (
  id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind           TEXT NOT NULL,
  year           INTEGER NOT NULL,
  seq            INTEGER NOT NULL,
  number         TEXT NOT NULL,
  code           TEXT NOT NULL,
  template_id    BIGINT REFERENCES document_templates(id),
  title          TEXT NOT NULL,
  language       TEXT NOT NULL,
  paper          TEXT NOT NULL,
  patient_id     BIGINT NOT NULL REFERENCES patients(id),
  appointment_id BIGINT REFERENCES appointments(id),
  initials       TEXT NOT NULL,
  birth_year     INTEGER,
  doctor_id      BIGINT NOT NULL REFERENCES users(id),
  doctor         TEXT NOT NULL,
  clinic         TEXT NOT NULL,
  signature_type TEXT NOT NULL DEFAULT '',
  signature      BYTEA,
  fields         TEXT NOT NULL,
  content        TEXT NOT NULL,
  content_hash   TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'issued',
  issued_at      TIMESTAMPTZ NOT NULL,
  cancel_reason  TEXT NOT NULL DEFAULT '',
  cancelled_at   TIMESTAMPTZ,
  cancelled_by   BIGINT REFERENCES users(id),
  version        INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX documents_number ON documents (kind, year, seq);
CREATE UNIQUE INDEX documents_code ON documents (code);
CREATE INDEX documents_patient ON documents (patient_id, id);
CREATE INDEX documents_appointment ON documents (appointment_id, id);

-- An issued document is fixed: only its cancellation may be written, once.
-- +goose StatementBegin
CREATE FUNCTION documents_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'an issued document cannot be deleted';
  END IF;
  IF OLD.status <> 'issued' OR NEW.status <> 'cancelled' OR (NEW.kind, NEW.year, NEW.seq, NEW.number, NEW.code, NEW.title,
    NEW.patient_id, NEW.appointment_id, NEW.initials, NEW.birth_year, NEW.doctor_id, NEW.doctor, NEW.clinic, NEW.signature,
    NEW.signature_type, NEW.fields, NEW.content, NEW.content_hash, NEW.issued_at, NEW.language, NEW.paper)
    IS DISTINCT FROM (OLD.kind, OLD.year, OLD.seq, OLD.number, OLD.code, OLD.title,
    OLD.patient_id, OLD.appointment_id, OLD.initials, OLD.birth_year, OLD.doctor_id, OLD.doctor, OLD.clinic, OLD.signature,
    OLD.signature_type, OLD.fields, OLD.content, OLD.content_hash, OLD.issued_at, OLD.language, OLD.paper) THEN
    RAISE EXCEPTION 'an issued document cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER documents_fixed BEFORE UPDATE OR DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_fixed();
