-- +goose Up
-- The audit log becomes a hash chain: every event carries its position (seq), the hash of
-- the event before it and its own hash over both, so an edited, removed or inserted row
-- breaks the chain where it happened. audit_chain holds the head; writers update it in the
-- same transaction as their event, which orders them (ADR 12). Events written before this
-- migration keep seq NULL and are reported as outside the chain.
ALTER TABLE audit_events ADD COLUMN seq BIGINT;
ALTER TABLE audit_events ADD COLUMN prev_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_events ADD COLUMN hash TEXT NOT NULL DEFAULT '';
-- The patient an event concerns, whatever its entity (a visit, a prescription, a file).
ALTER TABLE audit_events ADD COLUMN patient_id BIGINT NOT NULL DEFAULT 0; -- 0: none
-- Set when the actor was working under an emergency ("break-the-glass") grant.
ALTER TABLE audit_events ADD COLUMN emergency BOOLEAN NOT NULL DEFAULT FALSE;
CREATE UNIQUE INDEX audit_events_seq ON audit_events (seq);
-- The audit viewer filters and sorts by these, pages by (column, id), and by time.
CREATE INDEX audit_events_patient ON audit_events (patient_id, id);
CREATE INDEX audit_events_actor_name ON audit_events (actor_name, id);
CREATE INDEX audit_events_action ON audit_events (action, id);
CREATE INDEX audit_events_outcome ON audit_events (outcome, id);
CREATE INDEX audit_events_address ON audit_events (address, id);
CREATE INDEX audit_events_emergency ON audit_events (id) WHERE emergency;
DROP INDEX audit_events_entity;
CREATE INDEX audit_events_entity ON audit_events (entity_type, entity_id, id);

CREATE TABLE audit_chain (
  id   INTEGER PRIMARY KEY CHECK (id = 1),
  seq  BIGINT NOT NULL,
  hash TEXT NOT NULL
);
INSERT INTO audit_chain (id, seq, hash) VALUES (1, 0, '');

-- Time-limited emergency access an administrator grants a user, with the reason.
CREATE TABLE emergency_grants (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     BIGINT NOT NULL REFERENCES users(id),
  granted_by  BIGINT NOT NULL REFERENCES users(id),
  reason      TEXT NOT NULL,
  permissions TEXT NOT NULL, -- JSON array of permission names
  starts_at   TIMESTAMP NOT NULL,
  expires_at  TIMESTAMP NOT NULL,
  ended_at    TIMESTAMP,
  ended_by    BIGINT REFERENCES users(id)
);
CREATE INDEX emergency_grants_user ON emergency_grants (user_id, expires_at);
