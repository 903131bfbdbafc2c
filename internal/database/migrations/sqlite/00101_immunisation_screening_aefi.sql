-- +goose Up
-- Issue 59 reviews: the screening before a dose, stored with it (Viet Nam's QĐ 1575/QĐ-BYT
-- 2023 checklist; ACIP contraindications and precautions), as JSON: each question true, false
-- (answered no) or null (not asked); '{}' for a record written before it was kept.
ALTER TABLE immunisations ADD COLUMN screening TEXT NOT NULL DEFAULT '{}';
-- A reaction's hour of onset (HH:MM, '' not known), its outcome (the WHO AEFI reporting
-- form's), and the day it was reported to the health authority ('' not yet).
ALTER TABLE immunisation_reactions ADD COLUMN onset_time TEXT NOT NULL DEFAULT '';
ALTER TABLE immunisation_reactions ADD COLUMN outcome TEXT NOT NULL DEFAULT ''
  CHECK (outcome IN ('', 'recovered', 'recovering', 'not_recovered', 'recovered_with_sequelae', 'died', 'unknown'));
ALTER TABLE immunisation_reactions ADD COLUMN reported_on TEXT NOT NULL DEFAULT '';
