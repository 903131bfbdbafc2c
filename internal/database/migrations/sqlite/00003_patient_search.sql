-- +goose Up
-- Multi-word name search: an FTS5 index over each patient's name tokens (already folded by
-- the server: lower case, no accents, each Chinese character alone), rowid = patient id.
CREATE VIRTUAL TABLE patient_search USING fts5(
  terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='2 3'
);
INSERT INTO patient_search (rowid, terms)
  SELECT patient_id, group_concat(token, ' ') FROM patient_name_tokens GROUP BY patient_id;
