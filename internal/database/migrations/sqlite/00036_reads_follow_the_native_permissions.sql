-- +goose Up
-- Reads through FHIR follow the native permissions (issue 53, ADR 35).

-- A whole-clinic bulk export (the system, Patient and Group kick-offs) is a permission of its
-- own, held by the administrator alone until a clinic grants it to another role.
INSERT INTO permissions (name) VALUES ('export records');
INSERT INTO role_permissions (role_id, permission)
  SELECT id, 'export records' FROM roles WHERE name = 'admin';

-- An export is bound to the credential that started it: the API token (NULL for a browser
-- session or a backend client, which client_id names), and says what it left out because its
-- requester may not read it ("Observation:laboratory", a JSON list), so that a file is served
-- only while its reader may still read everything in it.
ALTER TABLE bulk_exports ADD COLUMN token_id BIGINT;
ALTER TABLE bulk_exports ADD COLUMN left_out TEXT NOT NULL DEFAULT '[]';
-- The sweep finds the exports whose files are due for deletion by their end.
CREATE INDEX bulk_exports_finished ON bulk_exports (finished_at) WHERE finished_at IS NOT NULL;

-- patient/ scopes need a patient launch context, which API tokens do not have: they are no
-- longer taken. A token made with them read them as user/ scopes; it keeps exactly the access
-- it had, now written as what it is.
UPDATE api_tokens SET scopes = REPLACE(scopes, 'patient/', 'user/') WHERE scopes LIKE '%patient/%';
