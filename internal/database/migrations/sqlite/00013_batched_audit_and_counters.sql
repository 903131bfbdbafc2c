-- +goose Up
-- Audit events are appended without touching a shared row and chained afterwards, in
-- batches, by one sealer (ADR 21). An event is written with seq NULL; the sealer gives it
-- its position and hashes, and writes the batch's head to audit_seals. Events with seq NULL
-- up to legacy_through were written before the chain existed and stay outside it.
ALTER TABLE audit_chain ADD COLUMN legacy_through INTEGER NOT NULL DEFAULT 0;
UPDATE audit_chain SET legacy_through = COALESCE((SELECT MAX(id) FROM audit_events WHERE seq IS NULL), 0);
CREATE INDEX audit_events_unsealed ON audit_events (id) WHERE seq IS NULL;

-- One row per sealed batch: the last position it chained, that event's hash, and when.
-- sealed_at is NULL for events chained as they were written (before batching, or loaded).
CREATE TABLE audit_seals (
  id        INTEGER PRIMARY KEY,
  last_seq  INTEGER NOT NULL UNIQUE,
  hash      TEXT NOT NULL,
  sealed_at TIMESTAMP
);
INSERT INTO audit_seals (last_seq, hash, sealed_at) SELECT seq, hash, NULL FROM audit_chain WHERE seq > 0;

-- The one update the log allows: sealing an event (its position and hashes, once).
DROP TRIGGER audit_events_no_update;
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
WHEN NOT (OLD.seq IS NULL AND OLD.hash = '' AND NEW.seq IS NOT NULL AND NEW.hash <> ''
  AND NEW.id = OLD.id AND NEW.at IS OLD.at AND NEW.actor_id IS OLD.actor_id AND NEW.actor_name IS OLD.actor_name
  AND NEW.action IS OLD.action AND NEW.entity_type IS OLD.entity_type AND NEW.entity_id IS OLD.entity_id
  AND NEW.patient_id IS OLD.patient_id AND NEW.address IS OLD.address AND NEW.outcome IS OLD.outcome
  AND NEW.detail IS OLD.detail AND NEW.emergency IS OLD.emergency)
BEGIN
  SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd

-- Totals many writers add to (patients on the register). On PostgreSQL each write appends
-- its change as a row of its own, so concurrent writers never wait for one another's commit;
-- readers sum a name's rows and a compactor folds them into one (ADR 21). On SQLite (one
-- writer at a time) each name keeps one row, updated in place.
CREATE TABLE totals (
  id    INTEGER PRIMARY KEY,
  name  TEXT NOT NULL,
  value INTEGER NOT NULL
);
CREATE INDEX totals_name ON totals (name);
INSERT INTO totals (name, value) SELECT name, value FROM counters WHERE name = 'patients:active';
DELETE FROM counters WHERE name = 'patients:active';

-- The dashboard's counts take changes as appended deltas, folded into the counts by a
-- compactor; readers add both. On SQLite (one writer at a time) the triggers still write the
-- counts directly and the delta tables stay empty; the readers' SQL is the same.
CREATE TABLE appointment_day_deltas (day TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL);
CREATE INDEX appointment_day_deltas_day ON appointment_day_deltas (day);
CREATE TABLE patient_month_deltas (month TEXT NOT NULL, n INTEGER NOT NULL);
CREATE TABLE patient_birth_deltas (birth_year INTEGER NOT NULL, sex TEXT NOT NULL, n INTEGER NOT NULL);
CREATE TABLE diagnosis_month_deltas (month TEXT NOT NULL, code TEXT NOT NULL, n INTEGER NOT NULL);
CREATE INDEX diagnosis_month_deltas_month ON diagnosis_month_deltas (month);

-- Batch heads are as append-only as the events.
-- +goose StatementBegin
CREATE TRIGGER audit_seals_no_update BEFORE UPDATE ON audit_seals
BEGIN
  SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_seals_no_delete BEFORE DELETE ON audit_seals
BEGIN
  SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd

-- Who an account is (its record, roles, permissions, grants, second factor) changes rarely
-- and is read on every request: servers keep it in memory and re-read it when this number
-- has moved (ADR 21). Every statement that can change it moves the number, in its own
-- transaction, whoever writes: the session lookup reads it in the same query as the session,
-- so a revoked permission or a deactivated account stops working at once on every instance.
CREATE TABLE identity_epoch (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  value INTEGER NOT NULL
);
INSERT INTO identity_epoch (id, value) VALUES (1, 0);
-- +goose StatementBegin
CREATE TRIGGER users_identity_insert AFTER INSERT ON users
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER users_identity_delete AFTER DELETE ON users
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER users_identity_update AFTER UPDATE OF username, name, avatar, introduction, must_change_password, active ON users
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER roles_identity_insert AFTER INSERT ON roles
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER roles_identity_delete AFTER DELETE ON roles
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER roles_identity_update AFTER UPDATE ON roles
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER role_permissions_identity_insert AFTER INSERT ON role_permissions
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER role_permissions_identity_delete AFTER DELETE ON role_permissions
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER role_permissions_identity_update AFTER UPDATE ON role_permissions
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER user_roles_identity_insert AFTER INSERT ON user_roles
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER user_roles_identity_delete AFTER DELETE ON user_roles
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER user_roles_identity_update AFTER UPDATE ON user_roles
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER emergency_grants_identity_insert AFTER INSERT ON emergency_grants
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER emergency_grants_identity_delete AFTER DELETE ON emergency_grants
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER emergency_grants_identity_update AFTER UPDATE ON emergency_grants
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER user_totp_identity_insert AFTER INSERT ON user_totp
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER user_totp_identity_delete AFTER DELETE ON user_totp
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER user_totp_identity_update AFTER UPDATE OF confirmed_at ON user_totp
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
END;
-- +goose StatementEnd
