-- +goose Up
-- Multi-word name search: a GIN index over each patient's name tokens (already folded by the
-- server: lower case, no accents, each Chinese character alone), stored as a tsvector so that
-- no query recomputes it.
ALTER TABLE patients ADD COLUMN search_terms TEXT NOT NULL DEFAULT '';
UPDATE patients p SET search_terms = t.terms
  FROM (SELECT patient_id, string_agg(token, ' ') AS terms FROM patient_name_tokens GROUP BY patient_id) t
  WHERE t.patient_id = p.id;
ALTER TABLE patients ADD COLUMN search_vector tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', search_terms)) STORED;
CREATE INDEX patients_search ON patients USING gin (search_vector);
