-- +goose Up
-- Credentials that follow the account (issue 53, ADR 35/39). A token ended by a remedy of its
-- account (a password changed or reset, the account deactivated, its second factor changed or
-- reset) says why; an owner's own revocation says "revoked". The expiry reminders an owner is
-- sent (14 days and 1 day before) are marked once each, so that one instance sends each.
ALTER TABLE api_tokens ADD COLUMN revoked_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE api_tokens ADD COLUMN reminded_14_at TIMESTAMP;
ALTER TABLE api_tokens ADD COLUMN reminded_1_at TIMESTAMP;
UPDATE api_tokens SET revoked_reason = 'revoked' WHERE revoked_at IS NOT NULL;
CREATE INDEX api_tokens_expiry ON api_tokens (expires_at) WHERE revoked_at IS NULL;
CREATE INDEX api_clients_created_by ON api_clients (created_by);

-- Which credential a request came with, on every audit event it writes: an API token
-- ('token:17 "Lab script"') or a backend client ('client:emr-abc "Lab interface"'); NULL for a
-- browser session and for every event before. The hash covers it only when it is set, so
-- the events chained before still verify.
ALTER TABLE audit_events ADD COLUMN credential TEXT;
CREATE INDEX audit_events_credential ON audit_events (id) WHERE credential IS NOT NULL;

-- The one update the log allows (sealing) leaves the credential as written, too.
DROP TRIGGER audit_events_no_update;
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
WHEN NOT (OLD.seq IS NULL AND OLD.hash = '' AND NEW.seq IS NOT NULL AND NEW.hash <> ''
  AND NEW.id = OLD.id AND NEW.at IS OLD.at AND NEW.actor_id IS OLD.actor_id AND NEW.actor_name IS OLD.actor_name
  AND NEW.action IS OLD.action AND NEW.entity_type IS OLD.entity_type AND NEW.entity_id IS OLD.entity_id
  AND NEW.patient_id IS OLD.patient_id AND NEW.address IS OLD.address AND NEW.outcome IS OLD.outcome
  AND NEW.detail IS OLD.detail AND NEW.emergency IS OLD.emergency AND NEW.credential IS OLD.credential)
BEGIN
  SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd
