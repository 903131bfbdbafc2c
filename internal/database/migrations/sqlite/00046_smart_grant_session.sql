-- +goose Up
-- Two things a SMART grant's tokens need (issue 54, ADR 40): an online_access grant is
-- refreshed only while the sign-in session that approved it lives, so the grant keeps that
-- session's token hash ('' for a grant without online_access); and an access token issued
-- by a refresh that narrowed the scope (RFC 6749 §6) carries those scopes (NULL: its
-- grant's).
ALTER TABLE smart_grants ADD COLUMN session_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE smart_tokens ADD COLUMN scopes TEXT;
