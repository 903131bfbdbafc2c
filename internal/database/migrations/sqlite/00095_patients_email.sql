-- +goose Up
-- A portal sign-in by e-mail finds the records of the address (patient.ByContact) on every
-- public request: by an index on the address as compared (lower case), not a scan of the
-- register.
CREATE INDEX patients_email ON patients (lower(email)) WHERE archived_at IS NULL;

