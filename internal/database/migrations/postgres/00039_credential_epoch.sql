-- +goose Up
-- Every remedy of an account (its password changed or reset, deactivated, its second factor
-- changed or reset) counts up the account's credential epoch in the remedy's transaction
-- (issue 53, ADR 35); no row is epoch 0. Making an API token reads the epoch before the
-- maker is re-authenticated and stores the token only if it is unchanged, holding this row
-- in the insert's transaction: a token made while a remedy commits is refused rather than
-- outliving it.
CREATE TABLE credential_epochs (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  epoch   BIGINT NOT NULL
);
