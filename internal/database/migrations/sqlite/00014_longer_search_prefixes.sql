-- +goose Up
-- Multi-word name search (ADR 7) matches every word as a prefix. The full-text index kept
-- ready-made entries for prefixes of 2 and 3 characters only; a longer word ("pham", "петров",
-- "nguyen") made SQLite merge the lists of every term starting with it, at every search —
-- 2–4 ms of CPU each at a million patients, the most of a mixed clinic workload's (ADR 21).
-- With entries for prefixes of 2 to 6 characters the same searches take 0.3–0.5 ms. The
-- index is rebuilt from the name tokens (about 6 s at a million patients).
DROP TABLE patient_search;
CREATE VIRTUAL TABLE patient_search USING fts5(
  terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='2 3 4 5 6'
);
INSERT INTO patient_search (rowid, terms)
  SELECT patient_id, group_concat(token, ' ') FROM patient_name_tokens GROUP BY patient_id;
