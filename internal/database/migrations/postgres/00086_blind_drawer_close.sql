-- +goose Up
-- A drawer is counted blind (the cashier's review, M7): the first count its cashier gave, before
-- she was shown what the drawer should hold, is kept beside the count it closed with; and a
-- difference over the clinic's limit names the supervisor who acknowledged it. Both NULL on
-- drawers closed before this (their count was the first, and no limit applied).
ALTER TABLE drawer_shifts ADD COLUMN first_count BIGINT;
ALTER TABLE drawer_shifts ADD COLUMN acknowledged_by BIGINT REFERENCES users (id);
