-- +goose Up
-- Issue 56, item 5 (ADR 45): what a patient may see of their record. The clinic's rules are a
-- setting; what the doctor chose for one item (a lab order's results, a document, a
-- prescription) is a row here: released, or held with the reason. What the rules and the
-- choice allow is then bounded by what is never released (an unacknowledged critical value, a
-- value withdrawn, a cancelled document), worked out when it is read, never stored.
CREATE TABLE release_decisions (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL CHECK (kind IN ('result', 'document', 'prescription')),
  item_id     BIGINT NOT NULL,
  patient_id  BIGINT NOT NULL REFERENCES patients(id),
  decision    TEXT NOT NULL CHECK (decision IN ('released', 'held')),
  reason      TEXT NOT NULL DEFAULT '',
  decided_at  TIMESTAMP NOT NULL,
  decided_by  BIGINT REFERENCES users(id),
  version     INTEGER NOT NULL DEFAULT 1,
  UNIQUE (kind, item_id)
);
CREATE INDEX release_decisions_patient ON release_decisions (patient_id, kind, item_id);

-- Each time the patient (or a guardian) opened a released item: the chart shows when.
CREATE TABLE release_openings (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  patient_id  BIGINT NOT NULL REFERENCES patients(id),
  kind        TEXT NOT NULL,
  item_id     BIGINT NOT NULL,
  opened_at   TIMESTAMP NOT NULL,
  actor       TEXT NOT NULL
);
CREATE INDEX release_openings_item ON release_openings (patient_id, kind, item_id, opened_at);
