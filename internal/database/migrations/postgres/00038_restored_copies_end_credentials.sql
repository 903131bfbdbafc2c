-- +goose Up
-- A restored copy of the clinic ends the backend clients the archive held (issue 53, ADR 26):
-- a drill or staging copy must not accept the assertions of the clinic's own systems. Such a
-- client says why it ended ('restored'), and only such a client may be enabled again by an
-- administrator (`emr client enable`); one an administrator revoked stays revoked.
ALTER TABLE api_clients ADD COLUMN revoked_reason TEXT NOT NULL DEFAULT '';
UPDATE api_clients SET revoked_reason = 'revoked' WHERE revoked_at IS NOT NULL;
