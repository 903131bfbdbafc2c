-- +goose Up
-- What a medicine is made of, for the allergy and duplicate-therapy checks: its active
-- ingredients ("amoxicillin + clavulanic acid") and its WHO ATC code ("J01CR02").
ALTER TABLE medicines ADD COLUMN ingredients TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines ADD COLUMN atc TEXT NOT NULL DEFAULT '';
