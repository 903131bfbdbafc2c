-- +goose Up
-- Issue 55 (ADR 38, "A withdrawal followed up"): before 00051 a correction of a critical value to
-- one that is not critical, or a test marked not done after a critical preliminary, left the
-- value's alert open: it still escalates as "a critical result waiting". Such alerts are
-- withdrawn now as the code withdraws them (the correction's, or the order's last change's,
-- who and when; the category; a reason saying why), so they escalate as withdrawals until one
-- they reached records the follow-up, and their orders wait for review with the withdrawal shown.
UPDATE critical_alerts SET
  withdrawn_at = (SELECT MIN(c.recorded_at) FROM lab_results c WHERE c.replaces = critical_alerts.result_id),
  withdrawn_by = (SELECT MIN(c.recorded_by) FROM lab_results c WHERE c.replaces = critical_alerts.result_id),
  withdrawn_reason = 'withdrawn on upgrade: the value was corrected before this check existed',
  withdrawn_category = 'corrected'
  WHERE is_open = 1 AND withdrawn_at IS NULL
  AND result_id IN (SELECT r.id FROM lab_results r WHERE r.is_current = 0 AND r.retracted_at IS NULL)
  AND EXISTS (SELECT 1 FROM lab_results c WHERE c.replaces = critical_alerts.result_id);
UPDATE critical_alerts SET
  withdrawn_at = (SELECT COALESCE(o.updated_at, critical_alerts.raised_at) FROM lab_orders o WHERE o.id = critical_alerts.order_id),
  withdrawn_by = (SELECT o.updated_by FROM lab_orders o WHERE o.id = critical_alerts.order_id),
  withdrawn_reason = 'withdrawn on upgrade: the test was marked not done before this check existed',
  withdrawn_category = 'not_done'
  WHERE is_open = 1 AND withdrawn_at IS NULL
  AND order_id IN (SELECT id FROM lab_orders WHERE status = 'not_done');
UPDATE lab_orders SET to_review = 1, withdrawn_to_review = 1
  WHERE id IN (SELECT order_id FROM critical_alerts WHERE withdrawn_reason LIKE 'withdrawn on upgrade: %' AND withdrawal_seen_at IS NULL);
UPDATE lab_orders SET repeat_needed = 1
  WHERE status = 'not_done' AND id IN (SELECT order_id FROM critical_alerts WHERE withdrawn_category = 'not_done'
    AND withdrawn_reason LIKE 'withdrawn on upgrade: %' AND withdrawal_seen_at IS NULL);
