-- +goose Up
-- The clinician's review of the release to patients, 2026-11-29 (M1, M2, ADR 45): a hold is one
-- of two kinds — discuss first (the patient sees "your doctor will discuss this with you") or
-- withhold (the patient sees nothing, not even that the item exists) — with a category of
-- reason and a date by which a doctor reviews it. A release keeps '' and NULL in them.
ALTER TABLE release_decisions ADD COLUMN hold_kind TEXT NOT NULL DEFAULT '' CHECK (hold_kind IN ('', 'discuss', 'withhold'));
ALTER TABLE release_decisions ADD COLUMN hold_category TEXT NOT NULL DEFAULT '';
ALTER TABLE release_decisions ADD COLUMN review_by TEXT; -- YYYY-MM-DD, the clinic's day
UPDATE release_decisions SET hold_kind = 'discuss', hold_category = 'other' WHERE decision = 'held';
-- A hold made before this migration is due for review 30 days after it was made, the default.
UPDATE release_decisions SET review_by = to_char(decided_at + INTERVAL '30 days', 'YYYY-MM-DD') WHERE decision = 'held';
