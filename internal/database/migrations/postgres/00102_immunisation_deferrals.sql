-- +goose Up
-- Issue 59 (the nurse's review): a deferral ("tạm hoãn", QĐ 1575/QĐ-BYT's third conclusion of
-- the screening) is a record of its own: the vaccine or antigen not given today, why, the day
-- to come back (until_on) and the screening that found it.
ALTER TABLE immunisations DROP CONSTRAINT immunisations_kind_check;
ALTER TABLE immunisations ADD CONSTRAINT immunisations_kind_check
  CHECK (kind IN ('given', 'elsewhere', 'refused', 'contraindicated', 'deferred'));
