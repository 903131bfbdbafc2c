-- +goose Up
-- Multi-word name search: a GIN index over every prefix (up to 20 characters) of each name
-- token (tokens are folded by the server: lower case, no accents, each Chinese character
-- alone), so that a prefix query is an exact-term lookup. Stored as a tsvector so no query
-- recomputes it.
ALTER TABLE patients ADD COLUMN search_terms TEXT NOT NULL DEFAULT '';
UPDATE patients p SET search_terms = t.terms
  FROM (SELECT patient_id, string_agg(DISTINCT left(token, n), ' ') AS terms
        FROM patient_name_tokens, generate_series(1, least(char_length(token), 20)) n
        GROUP BY patient_id) t
  WHERE t.patient_id = p.id;
ALTER TABLE patients ADD COLUMN search_vector tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', search_terms)) STORED;
CREATE INDEX patients_search ON patients USING gin (search_vector);
