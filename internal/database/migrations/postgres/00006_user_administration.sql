-- +goose Up
-- An administrator's password reset gives a temporary password that must be changed at the
-- next login; until then the account can do nothing else.
ALTER TABLE users ADD COLUMN must_change_password BOOLEAN NOT NULL DEFAULT FALSE;
-- E-mail addresses are unique among the accounts that have one, whatever their case.
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE email <> '';
