-- +goose Up
-- Issue 55 (ADR 38, "A withdrawal followed up"): a withdrawn critical result is itself a communication that must reach
-- someone responsible. An alert withdrawn stays open ("withdrawn, unseen") and escalates as
-- the alert did until one it reached records the follow-up: what was done about the value
-- that no longer stands (withdrawal_followup, with an optional note). Why it was withdrawn
-- is kept as a category beside the typed reason (a specimen problem, the wrong patient, a
-- transcription error, other; a correction or "not done" when that withdrew it).
ALTER TABLE critical_alerts ADD COLUMN withdrawn_category TEXT NOT NULL DEFAULT '';
ALTER TABLE critical_alerts ADD COLUMN withdrawal_seen_at TIMESTAMP;
ALTER TABLE critical_alerts ADD COLUMN withdrawal_seen_by BIGINT REFERENCES users(id);
ALTER TABLE critical_alerts ADD COLUMN withdrawal_followup TEXT NOT NULL DEFAULT '';
ALTER TABLE critical_alerts ADD COLUMN withdrawal_note TEXT NOT NULL DEFAULT '';
-- An order whose result was withdrawn for a reason that calls for the test again (a specimen
-- problem; "not done" after a critical preliminary) is chased in the overdue list until its
-- doctor records the follow-up or a new result arrives.
ALTER TABLE lab_orders ADD COLUMN repeat_needed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX lab_orders_repeat ON lab_orders (repeat_needed, due_at, id);
