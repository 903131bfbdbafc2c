-- +goose Up
-- Every remedy of an account (its password changed or reset, deactivated, its second factor
-- changed or reset) counts up the account's credential epoch in the remedy's transaction
-- (issue 53, ADR 35). Making an API token reads the epoch before the maker is
-- re-authenticated and stores the token only if it is unchanged: a token made while a
-- remedy commits is refused rather than outliving it.
ALTER TABLE users ADD COLUMN credential_epoch INTEGER NOT NULL DEFAULT 0;
