-- +goose Up
-- What another system sent with a patient beside the register's own fields (issue 54): its
-- identifiers, other names, contact points, structured addresses, languages and profiles,
-- kept as JSON to be given back as they came, and part of every kept version.
ALTER TABLE patients ADD COLUMN received TEXT NOT NULL DEFAULT '{}';

-- The patients' identifiers from other systems (a national ID, an insurer's number, another
-- record's number), indexed for search by system and value: one row per identifier, written
-- with the record. An identifier of a system belongs to one patient; one without a system
-- (system '') names nobody for sure, and is not unique.
CREATE TABLE patient_identifiers (
  patient_id BIGINT NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
  system     TEXT COLLATE "C" NOT NULL,
  value      TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (patient_id, system, value)
);
CREATE UNIQUE INDEX patient_identifiers_unique ON patient_identifiers (system, value) WHERE system <> '';
CREATE INDEX patient_identifiers_value ON patient_identifiers (value, system);
