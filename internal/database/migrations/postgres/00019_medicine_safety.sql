-- +goose Up
-- A clinic's own additions to the medicine-safety knowledge (ADR 25): brand and combination
-- names with their ingredients (substance keys), and drug–drug interaction rules between two
-- medicines or classes as an administrator names them. The shipped knowledge stays in the
-- binary; these rows are read on top of it.
CREATE TABLE drug_aliases (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        TEXT NOT NULL,
  name_key    TEXT NOT NULL, -- the name folded into its words: one row per name
  ingredients TEXT NOT NULL, -- substance keys joined by ' + '
  created_by  TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX drug_aliases_name ON drug_aliases (name_key);

CREATE TABLE drug_interactions (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  first      TEXT NOT NULL,
  second     TEXT NOT NULL,
  severity   TEXT NOT NULL, -- contraindicated, major, moderate
  effect     TEXT NOT NULL,
  action     TEXT NOT NULL,
  note       TEXT NOT NULL DEFAULT '',
  source     TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);

