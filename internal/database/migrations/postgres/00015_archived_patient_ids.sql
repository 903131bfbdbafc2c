-- +goose Up
-- A one-word name search walks the name tokens in order and leaves archived patients out
-- afterwards, by asking which of the page's candidates are archived (ADR 21). Archived
-- patients are few, so this index of their ids is small and answers that in a page or two,
-- where looking up each candidate's row read a page of the register per candidate.
CREATE INDEX patients_archived_id ON patients (id) WHERE archived_at IS NOT NULL;
