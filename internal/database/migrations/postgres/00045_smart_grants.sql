-- +goose Up
-- What a staff member approved for a SMART app (issue 54, ADR 40): the scopes granted, the
-- patient in context, and the account's credential epoch at approval — any remedy of the
-- account (password, deactivation, second factor) counts the epoch up and so ends the grant
-- with its tokens. A grant is one family: a code used twice, or a refresh token used after
-- it was rotated, revokes it whole.
CREATE TABLE smart_grants (
  id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_id         BIGINT NOT NULL REFERENCES smart_apps(id),
  user_id        BIGINT NOT NULL REFERENCES users(id),
  patient_id     BIGINT REFERENCES patients(id),
  scopes         TEXT NOT NULL,
  epoch          BIGINT NOT NULL,
  created_at     TIMESTAMPTZ NOT NULL,
  expires_at     TIMESTAMPTZ NOT NULL,
  revoked_at     TIMESTAMPTZ,
  revoked_reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX smart_grants_user ON smart_grants (user_id);
-- The one-time authorization code (its SHA-256), bound to the redirect URI and the PKCE
-- challenge it was asked with; kept after use so a second use is recognised.
CREATE TABLE smart_codes (
  code_hash      TEXT PRIMARY KEY,
  grant_id       BIGINT NOT NULL REFERENCES smart_grants(id),
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  nonce          TEXT NOT NULL DEFAULT '',
  expires_at     TIMESTAMPTZ NOT NULL,
  used_at        TIMESTAMPTZ
);
CREATE INDEX smart_codes_expiry ON smart_codes (expires_at);
-- Access and refresh tokens (their SHA-256) of a grant. A refresh token is used once
-- (used_at): its use issues the next.
CREATE TABLE smart_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id   BIGINT NOT NULL REFERENCES smart_grants(id),
  kind       TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at    TIMESTAMPTZ
);
CREATE INDEX smart_tokens_grant ON smart_tokens (grant_id);
CREATE INDEX smart_tokens_expiry ON smart_tokens (expires_at);
