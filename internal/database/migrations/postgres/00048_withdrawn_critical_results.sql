-- +goose Up
-- Issue 54 (ADR 38): a critical result retracted as entered in error closes its alert as
-- withdrawn (who, when, why), not silently; and the order keeps, until its ordering doctor
-- reviews it on its own, that a result of it was withdrawn (the review queue puts it first).
ALTER TABLE critical_alerts ADD COLUMN withdrawn_at TIMESTAMP;
ALTER TABLE critical_alerts ADD COLUMN withdrawn_by BIGINT REFERENCES users(id);
ALTER TABLE critical_alerts ADD COLUMN withdrawn_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_orders ADD COLUMN withdrawn_to_review INTEGER NOT NULL DEFAULT 0;
-- The review queue's first read: a doctor's orders with a withdrawal not yet reviewed.
CREATE INDEX lab_orders_withdrawn ON lab_orders (ordered_by, withdrawn_to_review, id);

-- Alerts that a retraction before this closed with nothing said: withdrawn, with the
-- retraction's who, when and why; their orders wait for review with the withdrawal shown.
UPDATE critical_alerts SET withdrawn_at = (SELECT r.retracted_at FROM lab_results r WHERE r.id = critical_alerts.result_id),
  withdrawn_by = (SELECT r.retracted_by FROM lab_results r WHERE r.id = critical_alerts.result_id),
  withdrawn_reason = (SELECT r.retract_reason FROM lab_results r WHERE r.id = critical_alerts.result_id)
  WHERE result_id IN (SELECT id FROM lab_results WHERE status = 'entered_in_error');
UPDATE lab_orders SET withdrawn_to_review = 1, to_review = 1
  WHERE status <> 'reviewed' AND id IN (SELECT order_id FROM lab_results WHERE status = 'entered_in_error');
