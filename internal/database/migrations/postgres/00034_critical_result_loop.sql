-- +goose Up
-- The critical-result loop (issue 52, ADR 37): a second escalation level (the clinic's
-- medical lead), a patient not reached kept open, how the result was received (read-back
-- required by telephone), and the e-mail outbox each escalation writes in its transaction.
ALTER TABLE critical_alerts ADD COLUMN escalated_lead_at TIMESTAMP;
ALTER TABLE critical_alerts ADD COLUMN received_by TEXT NOT NULL DEFAULT '';
ALTER TABLE critical_alerts ADD COLUMN not_reached_at TIMESTAMP;
ALTER TABLE critical_alerts ADD COLUMN not_reached_by BIGINT REFERENCES users(id);
ALTER TABLE critical_alerts ADD COLUMN not_reached_note TEXT NOT NULL DEFAULT '';
ALTER TABLE critical_alerts ADD COLUMN not_reached_count INTEGER NOT NULL DEFAULT 0;
-- The escalation sweep's two reads: open alerts not yet escalated (by age), and escalated
-- ones not yet sent to the medical lead (by when they escalated).
CREATE INDEX critical_alerts_escalation ON critical_alerts (is_open, escalated_at, raised_at, id);

-- E-mail waiting to be sent, written in the transaction of what it tells (internal/mail).
-- One row per recipient; status pending (due at next_attempt_at), sent, failed (the mail
-- server refused it for good, or retries ran out) or no_address (the account has no e-mail).
-- claimed_until is a sender's lease, so that two instances never send the same row.
CREATE TABLE mail_outbox (
  id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic            TEXT NOT NULL,
  topic_id         BIGINT NOT NULL,
  user_id          BIGINT REFERENCES users(id),
  recipient        TEXT NOT NULL,
  subject          TEXT NOT NULL,
  body             TEXT NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  last_error       TEXT NOT NULL DEFAULT '',
  created_at       TIMESTAMP NOT NULL,
  next_attempt_at  TIMESTAMP NOT NULL,
  claimed_until    TIMESTAMP,
  sent_at          TIMESTAMP
);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at, id);
CREATE INDEX mail_outbox_topic ON mail_outbox (topic_id, topic, id);

-- Who may see and acknowledge the critical results sent to them: every role that reviews
-- results, and the nurse (who may be the covering role: ADR 37).
INSERT INTO permissions (name) VALUES ('acknowledge critical results');
INSERT INTO role_permissions (role_id, permission)
  SELECT DISTINCT role_id, 'acknowledge critical results' FROM role_permissions WHERE permission = 'review results';
INSERT INTO role_permissions (role_id, permission)
  SELECT id, 'acknowledge critical results' FROM roles WHERE name IN ('admin', 'nurse')
  AND id NOT IN (SELECT role_id FROM role_permissions WHERE permission = 'acknowledge critical results');
