-- +goose Up
-- SMART Backend Services (issue 38, ADR 35): systems that call the FHIR API on their own,
-- with no person behind the request. A client is registered with its public keys (a JWK
-- Set) and the system/ scopes it may have; it proves itself with a JWT signed by one of its
-- keys (private_key_jwt, RS384 or ES384) and gets a short-lived access token.
CREATE TABLE api_clients (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  client_id         TEXT NOT NULL UNIQUE,
  name              TEXT NOT NULL,
  jwks              TEXT NOT NULL,
  scopes            TEXT NOT NULL,
  created_at        TIMESTAMP NOT NULL,
  created_by        BIGINT REFERENCES users(id),
  last_used_at      TIMESTAMP,
  last_used_address TEXT NOT NULL DEFAULT '',
  revoked_at        TIMESTAMP,
  revoked_by        BIGINT REFERENCES users(id)
);
-- Each assertion's jti, kept until the assertion expires: a second use is a replay.
CREATE TABLE api_client_assertions (
  client_id  BIGINT NOT NULL REFERENCES api_clients(id),
  jti        TEXT NOT NULL,
  expires_at TIMESTAMP NOT NULL,
  PRIMARY KEY (client_id, jti)
);
CREATE INDEX api_client_assertions_expiry ON api_client_assertions (expires_at);
-- The access tokens issued (their SHA-256), each for a few minutes.
CREATE TABLE api_client_tokens (
  token_hash TEXT PRIMARY KEY,
  client_id  BIGINT NOT NULL REFERENCES api_clients(id),
  scopes     TEXT NOT NULL,
  expires_at TIMESTAMP NOT NULL
);
CREATE INDEX api_client_tokens_expiry ON api_client_tokens (expires_at);
