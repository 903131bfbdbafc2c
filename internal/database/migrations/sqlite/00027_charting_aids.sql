-- +goose Up
-- Faster charting (issue 37, ADR 34): order sets, text snippets and favourites.
-- An order set or a snippet belongs to a doctor (owner_id) or, with no owner, to the clinic;
-- clinic-wide ones are kept by whoever may 'manage clinic sets'. language '' is any language.
-- A set's content is JSON (diagnoses, orders, prescription lines, plan, follow-up days);
-- example marks the starter sets and snippets the clinic began with.

INSERT INTO permissions (name) VALUES ('manage clinic sets');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, 'manage clinic sets' FROM roles WHERE name = 'admin';

CREATE TABLE order_sets (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id   BIGINT REFERENCES users(id),
  name       TEXT NOT NULL,
  language   TEXT NOT NULL DEFAULT '',
  content    TEXT NOT NULL,
  example    BOOLEAN NOT NULL DEFAULT FALSE,
  starter    TEXT NOT NULL DEFAULT '',
  active     BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMP NOT NULL,
  created_by BIGINT REFERENCES users(id),
  updated_at TIMESTAMP NOT NULL,
  updated_by BIGINT REFERENCES users(id),
  version    INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX order_sets_owner ON order_sets (owner_id, active, id);
CREATE UNIQUE INDEX order_sets_starter ON order_sets (starter, language) WHERE starter <> '';

CREATE TABLE snippets (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id   BIGINT REFERENCES users(id),
  section    TEXT NOT NULL CHECK (section IN ('any', 'complaint', 'history', 'examination', 'plan')),
  shortcut   TEXT NOT NULL,
  language   TEXT NOT NULL DEFAULT '',
  body       TEXT NOT NULL,
  example    BOOLEAN NOT NULL DEFAULT FALSE,
  starter    TEXT NOT NULL DEFAULT '',
  active     BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMP NOT NULL,
  created_by BIGINT REFERENCES users(id),
  updated_at TIMESTAMP NOT NULL,
  updated_by BIGINT REFERENCES users(id),
  version    INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX snippets_owner ON snippets (owner_id, active, id);
CREATE UNIQUE INDEX snippets_starter ON snippets (starter, language) WHERE starter <> '';

-- A doctor's starred medicines (ref: the catalogue id), tests (the test's code) and
-- diagnosis codes, which pickers offer first.
CREATE TABLE favourites (
  user_id    BIGINT NOT NULL REFERENCES users(id),
  kind       TEXT NOT NULL CHECK (kind IN ('medicine', 'test', 'code')),
  ref        TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL,
  PRIMARY KEY (user_id, kind, ref)
);

