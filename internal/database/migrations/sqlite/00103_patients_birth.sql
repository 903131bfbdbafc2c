-- +goose Up
-- Issue 59 (the FHIR review): the active patients by birth date, so that an export since a
-- time finds the children whose forecast ended in it (a birthday takes them past the last
-- schedule's age) without reading the register.
CREATE INDEX patients_active_birth ON patients (birth_date, id) WHERE archived_at IS NULL;
