-- +goose Up
-- Whether a drawer's float was counted in (set by its cashier, 0 included), apart from its
-- amount: a float of 0 set on purpose is counted, one never set is asked for on the first cash
-- (ADR 41; the clinic manager's run, 2026-11-29). Shifts before this are taken as counted.
ALTER TABLE drawer_shifts ADD COLUMN float_counted INTEGER NOT NULL DEFAULT 0;
UPDATE drawer_shifts SET float_counted = 1;
