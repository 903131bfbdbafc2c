-- +goose Up
-- Credentials that follow the account (issue 53, ADR 35/39). A token ended by a remedy of its
-- account (a password changed or reset, the account deactivated, its second factor changed or
-- reset) says why; an owner's own revocation says "revoked". The expiry reminders an owner is
-- sent (14 days and 1 day before) are marked once each, so that one instance sends each.
ALTER TABLE api_tokens ADD COLUMN revoked_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE api_tokens ADD COLUMN reminded_14_at TIMESTAMPTZ;
ALTER TABLE api_tokens ADD COLUMN reminded_1_at TIMESTAMPTZ;
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
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION audit_events_seal_only() RETURNS trigger AS $$
BEGIN
  IF OLD.seq IS NULL AND OLD.hash = '' AND NEW.seq IS NOT NULL AND NEW.hash <> ''
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.action, NEW.entity_type, NEW.entity_id,
          NEW.patient_id, NEW.address, NEW.outcome, NEW.detail, NEW.emergency, NEW.credential)
     IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.actor_name, OLD.action, OLD.entity_type, OLD.entity_id,
          OLD.patient_id, OLD.address, OLD.outcome, OLD.detail, OLD.emergency, OLD.credential) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit events are append-only';
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
