-- +goose Up
-- Login throttling takes a try's slot before the password is checked, atomically (one
-- upsert per key), so that no number of parallel tries gets more checks than the limit.
-- A counter per key and window replaces the failure log.
CREATE TABLE login_throttle (
  key          TEXT PRIMARY KEY,
  window_start TIMESTAMP NOT NULL,
  tries        INTEGER NOT NULL
);
-- The addresses each account has signed in from: a correct login from one of them is not
-- refused when the address as a whole is throttled (a clinic behind one NAT).
CREATE TABLE login_known_addresses (
  user_key TEXT NOT NULL,
  address  TEXT NOT NULL,
  last_at  TIMESTAMP NOT NULL,
  PRIMARY KEY (user_key, address)
);
DROP TABLE login_failures;
