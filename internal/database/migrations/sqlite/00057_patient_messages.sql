-- +goose Up
-- Issue 56 (ADR 42): appointment messages to patients through the one outbox.
-- A message goes by e-mail or SMS (channel) and may be for a patient (patient_id) rather
-- than a staff account; expires_at, when set, is when it no longer holds (a reminder after
-- its appointment began is dropped, never sent late).
ALTER TABLE mail_outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';
ALTER TABLE mail_outbox ADD COLUMN patient_id BIGINT REFERENCES patients(id);
ALTER TABLE mail_outbox ADD COLUMN expires_at TIMESTAMP;
CREATE INDEX mail_outbox_log ON mail_outbox (created_at, id);
CREATE INDEX mail_outbox_patient ON mail_outbox (patient_id, id);

-- How a patient wants to hear from the clinic: reminders by e-mail, SMS or not at all, and
-- in which language ('' = the clinic's). Existing patients get what their contact allows.
ALTER TABLE patients ADD COLUMN reminders TEXT NOT NULL DEFAULT 'none';
ALTER TABLE patients ADD COLUMN message_language TEXT NOT NULL DEFAULT '';
UPDATE patients SET reminders = CASE WHEN email <> '' THEN 'email' WHEN phone <> '' THEN 'sms' ELSE 'none' END;

-- The patient confirmed the appointment from a message's link.
ALTER TABLE appointments ADD COLUMN confirmed_at TIMESTAMP;

-- The links of the messages: each a signed, expiring, single-use token naming one row
-- here (the token carries the id and the expiry; the row says whether it was used, and how).
CREATE TABLE message_links (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  appointment_id  BIGINT NOT NULL REFERENCES appointments(id),
  patient_id      BIGINT NOT NULL REFERENCES patients(id),
  created_at      TIMESTAMP NOT NULL,
  expires_at      TIMESTAMP NOT NULL,
  used_at         TIMESTAMP,
  purpose         TEXT NOT NULL,
  used_for        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX message_links_appointment ON message_links (appointment_id, id);

INSERT INTO permissions (name) VALUES ('send messages');
INSERT INTO role_permissions (role_id, permission) SELECT id, 'send messages' FROM roles WHERE name IN ('admin', 'receptionist');
