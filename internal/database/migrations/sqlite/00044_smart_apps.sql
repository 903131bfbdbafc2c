-- +goose Up
-- SMART App Launch (issue 54, ADR 40): browser apps a staff member opens from a patient's
-- chart. An app is a public client (it keeps no secret: PKCE proves the code's requester),
-- registered by an administrator with the exact redirect URIs it may be sent back to (one a
-- line), the page the chart opens, and the scopes it may ask for.
CREATE TABLE smart_apps (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  client_id     TEXT NOT NULL UNIQUE,
  name          TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  launch_url    TEXT NOT NULL,
  scopes        TEXT NOT NULL,
  created_at    TIMESTAMP NOT NULL,
  created_by    BIGINT REFERENCES users(id),
  revoked_at    TIMESTAMP,
  revoked_by    BIGINT REFERENCES users(id)
);
-- A launch from the chart (its SHA-256): the app, the staff member and the patient whose
-- chart it was opened from, for a few minutes; the authorization that names it takes the
-- patient from here, never from the app.
CREATE TABLE smart_launches (
  launch_hash TEXT PRIMARY KEY,
  app_id      BIGINT NOT NULL REFERENCES smart_apps(id),
  user_id     BIGINT NOT NULL REFERENCES users(id),
  patient_id  BIGINT NOT NULL REFERENCES patients(id),
  expires_at  TIMESTAMP NOT NULL
);
CREATE INDEX smart_launches_expiry ON smart_launches (expires_at);
