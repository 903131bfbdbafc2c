-- +goose Up
-- A drawer's blind count keeps what the drawer should have held when it was counted beside the
-- first count, and the cashier's own note on a difference, apart from the supervisor's note at
-- the close (the review of the blind count). NULL and '' on drawers counted before this.
ALTER TABLE drawer_shifts ADD COLUMN count_expected BIGINT;
ALTER TABLE drawer_shifts ADD COLUMN count_note TEXT NOT NULL DEFAULT '';
