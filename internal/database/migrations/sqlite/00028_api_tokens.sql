-- +goose Up
-- API tokens (issue 38, ADR 35): a named bearer token for an account, for programs (the FHIR
-- API, the native API, scripts). Only the token's SHA-256 is kept; the token is shown once.
-- A token is its user: the guard reads the account's roles and permissions at every request,
-- and scopes (SMART-style, space-separated; '' for the user's whole access) may narrow it.
-- Revocation sets revoked_at; every lookup reads the row, so it holds on every instance at once.
CREATE TABLE api_tokens (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id           BIGINT NOT NULL REFERENCES users(id),
  name              TEXT NOT NULL,
  token_hash        TEXT NOT NULL UNIQUE,
  scopes            TEXT NOT NULL DEFAULT '',
  created_at        TIMESTAMP NOT NULL,
  created_by        BIGINT REFERENCES users(id),
  expires_at        TIMESTAMP NOT NULL,
  last_used_at      TIMESTAMP,
  last_used_address TEXT NOT NULL DEFAULT '',
  revoked_at        TIMESTAMP,
  revoked_by        BIGINT REFERENCES users(id)
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, id);

-- +goose Down
DROP TABLE api_tokens;
