-- +goose Up
-- Two-factor sign-in (TOTP, RFC 6238): a user's secret, confirmed once a code from it was
-- typed back; the last time step used, so a code works once; single-use recovery codes,
-- stored hashed; and the roles whose members must use it.
CREATE TABLE user_totp (
  user_id      INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret       TEXT NOT NULL,
  confirmed_at TIMESTAMP,
  last_step    BIGINT NOT NULL DEFAULT 0,
  created_at   TIMESTAMP NOT NULL
);
CREATE TABLE user_recovery_codes (
  id        INTEGER PRIMARY KEY,
  user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at   TIMESTAMP
);
CREATE INDEX user_recovery_codes_user ON user_recovery_codes (user_id);
ALTER TABLE roles ADD COLUMN require_two_factor BOOLEAN NOT NULL DEFAULT FALSE;
