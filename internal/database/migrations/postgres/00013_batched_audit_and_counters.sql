-- +goose Up
-- Audit events are appended without touching a shared row and chained afterwards, in
-- batches, by one sealer (ADR 21). An event is written with seq NULL; the sealer gives it
-- its position and hashes, and writes the batch's head to audit_seals. Events with seq NULL
-- up to legacy_through were written before the chain existed and stay outside it.
ALTER TABLE audit_chain ADD COLUMN legacy_through BIGINT NOT NULL DEFAULT 0;
UPDATE audit_chain SET legacy_through = COALESCE((SELECT MAX(id) FROM audit_events WHERE seq IS NULL), 0);
CREATE INDEX audit_events_unsealed ON audit_events (id) WHERE seq IS NULL;

-- One row per sealed batch: the last position it chained, that event's hash, and when.
-- sealed_at is NULL for events chained as they were written (before batching, or loaded).
CREATE TABLE audit_seals (
  id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  last_seq  BIGINT NOT NULL UNIQUE,
  hash      TEXT NOT NULL,
  sealed_at TIMESTAMPTZ
);
INSERT INTO audit_seals (last_seq, hash, sealed_at) SELECT seq, hash, NULL FROM audit_chain WHERE seq > 0;
-- Batch heads are as append-only as the events.
CREATE TRIGGER audit_seals_no_change BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

-- The one update the log allows: sealing an event (its position and hashes, once).
-- +goose StatementBegin
CREATE FUNCTION audit_events_seal_only() RETURNS trigger AS $$
BEGIN
  IF OLD.seq IS NULL AND OLD.hash = '' AND NEW.seq IS NOT NULL AND NEW.hash <> ''
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.action, NEW.entity_type, NEW.entity_id,
          NEW.patient_id, NEW.address, NEW.outcome, NEW.detail, NEW.emergency)
     IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.actor_name, OLD.action, OLD.entity_type, OLD.entity_id,
          OLD.patient_id, OLD.address, OLD.outcome, OLD.detail, OLD.emergency) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit events are append-only';
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
DROP TRIGGER audit_events_no_update ON audit_events;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_seal_only();
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

-- Totals many writers add to (patients on the register). On PostgreSQL each write appends
-- its change as a row of its own, so concurrent writers never wait for one another's commit;
-- readers sum a name's rows and a compactor folds them into one (ADR 21). On SQLite (one
-- writer at a time) each name keeps one row, updated in place.
CREATE TABLE totals (
  id    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name  TEXT COLLATE "C" NOT NULL,
  value BIGINT NOT NULL
);
CREATE INDEX totals_name ON totals (name);
INSERT INTO totals (name, value) SELECT name, value FROM counters WHERE name = 'patients:active';
DELETE FROM counters WHERE name = 'patients:active';

-- Patient numbers come from a sequence (gaps allowed, no lock held): a year's numbers are
-- the sequence's value less the year's base, kept in counters as "mrn-base:YEAR" (ADR 21).
-- The year in progress goes on from where its counter stands.
CREATE SEQUENCE patient_numbers;
INSERT INTO counters (name, value) SELECT 'mrn-base:' || substr(name, 5), -value FROM counters WHERE name LIKE 'mrn:%';

-- The dashboard's counts take changes as appended deltas (no row two writers share), folded
-- into the counts by a compactor; readers add both.
CREATE TABLE appointment_day_deltas (day TEXT COLLATE "C" NOT NULL, status TEXT NOT NULL, n BIGINT NOT NULL);
CREATE INDEX appointment_day_deltas_day ON appointment_day_deltas (day);
CREATE TABLE patient_month_deltas (month TEXT COLLATE "C" NOT NULL, n BIGINT NOT NULL);
CREATE TABLE patient_birth_deltas (birth_year INTEGER NOT NULL, sex TEXT NOT NULL, n BIGINT NOT NULL);
CREATE TABLE diagnosis_month_deltas (month TEXT COLLATE "C" NOT NULL, code TEXT COLLATE "C" NOT NULL, n BIGINT NOT NULL);
CREATE INDEX diagnosis_month_deltas_month ON diagnosis_month_deltas (month);
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION appointment_day_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO appointment_day_deltas (day, status, n)
      SELECT day, status, COUNT(*) FROM new_rows GROUP BY day, status;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO appointment_day_deltas (day, status, n)
      SELECT day, status, -COUNT(*) FROM old_rows GROUP BY day, status;
  ELSE
    INSERT INTO appointment_day_deltas (day, status, n)
      SELECT day, status, SUM(d) FROM (
        SELECT day, status, 1 AS d FROM new_rows UNION ALL SELECT day, status, -1 FROM old_rows) x
      GROUP BY day, status HAVING SUM(d) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION patient_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO patient_month_deltas (month, n)
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), COUNT(*) FROM new_rows GROUP BY 1;
    INSERT INTO patient_birth_deltas (birth_year, sex, n)
      SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, COUNT(*) FROM new_rows WHERE archived_at IS NULL GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO patient_month_deltas (month, n)
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), -COUNT(*) FROM old_rows GROUP BY 1;
    INSERT INTO patient_birth_deltas (birth_year, sex, n)
      SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, -COUNT(*) FROM old_rows WHERE archived_at IS NULL GROUP BY 1, 2;
  ELSE
    INSERT INTO patient_month_deltas (month, n)
      SELECT month, SUM(d) FROM (
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, 1 AS d FROM new_rows
        UNION ALL SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), -1 FROM old_rows) x
      GROUP BY month HAVING SUM(d) <> 0;
    INSERT INTO patient_birth_deltas (birth_year, sex, n)
      SELECT birth_year, sex, SUM(d) FROM (
        SELECT CAST(substr(birth_date, 1, 4) AS INTEGER) AS birth_year, sex, 1 AS d FROM new_rows WHERE archived_at IS NULL
        UNION ALL SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, -1 FROM old_rows WHERE archived_at IS NULL) x
      GROUP BY birth_year, sex HAVING SUM(d) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION diagnosis_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO diagnosis_month_deltas (month, code, n)
      SELECT substr(a.day, 1, 7), c.code, COUNT(*)
      FROM new_rows v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code)
      WHERE v.status = 'signed' GROUP BY 1, 2;
  ELSE
    INSERT INTO diagnosis_month_deltas (month, code, n)
      SELECT month, code, SUM(d) FROM (
        SELECT substr(a.day, 1, 7) AS month, c.code, 1 AS d
          FROM new_rows v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code) WHERE v.status = 'signed'
        UNION ALL
        SELECT substr(a.day, 1, 7), c.code, -1
          FROM old_rows v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code) WHERE v.status = 'signed') x
      GROUP BY month, code HAVING SUM(d) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- Who an account is (its record, roles, permissions, grants, second factor) changes rarely
-- and is read on every request: servers keep it in memory and re-read it when this number
-- has moved (ADR 21). Every statement that can change it moves the number, in its own
-- transaction, whoever writes: the session lookup reads it in the same query as the session,
-- so a revoked permission or a deactivated account stops working at once on every instance.
CREATE TABLE identity_epoch (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  value BIGINT NOT NULL
);
INSERT INTO identity_epoch (id, value) VALUES (1, 0);
-- +goose StatementBegin
CREATE FUNCTION identity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE identity_epoch SET value = value + 1 WHERE id = 1;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER users_identity AFTER INSERT OR DELETE OR UPDATE OF username, name, avatar, introduction, must_change_password, active ON users
  FOR EACH STATEMENT EXECUTE FUNCTION identity_changed();
CREATE TRIGGER roles_identity AFTER INSERT OR DELETE OR UPDATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION identity_changed();
CREATE TRIGGER role_permissions_identity AFTER INSERT OR DELETE OR UPDATE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION identity_changed();
CREATE TRIGGER user_roles_identity AFTER INSERT OR DELETE OR UPDATE ON user_roles
  FOR EACH STATEMENT EXECUTE FUNCTION identity_changed();
CREATE TRIGGER emergency_grants_identity AFTER INSERT OR DELETE OR UPDATE ON emergency_grants
  FOR EACH STATEMENT EXECUTE FUNCTION identity_changed();
CREATE TRIGGER user_totp_identity AFTER INSERT OR DELETE OR UPDATE OF confirmed_at ON user_totp
  FOR EACH STATEMENT EXECUTE FUNCTION identity_changed();
