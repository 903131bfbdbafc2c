-- +goose Up
CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  username      TEXT NOT NULL UNIQUE,
  name          TEXT NOT NULL,
  email         TEXT NOT NULL DEFAULT '',
  avatar        TEXT NOT NULL DEFAULT '',
  introduction  TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL,
  active        BOOLEAN NOT NULL DEFAULT TRUE,
  created_at    TIMESTAMP NOT NULL,
  updated_at    TIMESTAMP NOT NULL,
  version       INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE roles (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

-- The permission catalogue is defined in code (internal/auth); this table mirrors it so
-- that role_permissions can reference it.
CREATE TABLE permissions (
  name TEXT PRIMARY KEY
);

CREATE TABLE role_permissions (
  role_id    INTEGER NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  permission TEXT NOT NULL REFERENCES permissions(name) ON DELETE CASCADE,
  PRIMARY KEY (role_id, permission)
);

CREATE TABLE user_roles (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id INTEGER NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);
CREATE INDEX user_roles_role ON user_roles (role_id);

-- Sessions are stored server-side so that any instance can serve any request; only the
-- SHA-256 of the cookie's token is kept.
CREATE TABLE sessions (
  token_hash   TEXT PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at   TIMESTAMP NOT NULL,
  last_seen_at TIMESTAMP NOT NULL,
  expires_at   TIMESTAMP NOT NULL,
  address      TEXT NOT NULL DEFAULT '',
  user_agent   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Failed logins, counted per key ("user:NAME" or "addr:IP") for throttling.
CREATE TABLE login_failures (
  id  INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  at  TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);

-- The audit log is append-only: triggers refuse every UPDATE and DELETE.
CREATE TABLE audit_events (
  id          INTEGER PRIMARY KEY,
  at          TIMESTAMP NOT NULL,
  actor_id    INTEGER REFERENCES users(id),
  actor_name  TEXT NOT NULL DEFAULT '',
  action      TEXT NOT NULL,
  entity_type TEXT NOT NULL DEFAULT '',
  entity_id   TEXT NOT NULL DEFAULT '',
  address     TEXT NOT NULL DEFAULT '',
  outcome     TEXT NOT NULL,
  detail      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_actor_at ON audit_events (actor_id, at);
CREATE INDEX audit_events_entity ON audit_events (entity_type, entity_id, at);

-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd

INSERT INTO permissions (name) VALUES
  ('manage user'),
  ('manage permission'),
  ('view menu permission'),
  ('view patient'),
  ('manage patient'),
  ('view appointment'),
  ('manage appointment'),
  ('record vitals'),
  ('write diagnosis'),
  ('write prescription'),
  ('manage catalogue'),
  ('view audit log');
INSERT INTO roles (name) VALUES ('admin'), ('doctor'), ('nurse'), ('receptionist');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, permissions p WHERE roles.name = 'admin' AND p.name IN ('manage user', 'manage permission', 'view menu permission', 'view patient', 'manage patient', 'view appointment', 'manage appointment', 'record vitals', 'write diagnosis', 'write prescription', 'manage catalogue', 'view audit log');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, permissions p WHERE roles.name = 'doctor' AND p.name IN ('view patient', 'manage patient', 'view appointment', 'manage appointment', 'record vitals', 'write diagnosis', 'write prescription');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, permissions p WHERE roles.name = 'nurse' AND p.name IN ('view patient', 'view appointment', 'record vitals');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, p.name FROM roles, permissions p WHERE roles.name = 'receptionist' AND p.name IN ('view patient', 'manage patient', 'view appointment', 'manage appointment');
