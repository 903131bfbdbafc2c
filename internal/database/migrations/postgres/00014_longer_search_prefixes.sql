-- +goose Up
-- SQLite's full-text index gets longer prefixes (see the SQLite migration of this number).
-- PostgreSQL's name search already matches each word as an exact term of its prefix column
-- (search_terms, up to 20 characters): nothing to change; the number keeps the two engines'
-- migrations in step.
SELECT 1;
