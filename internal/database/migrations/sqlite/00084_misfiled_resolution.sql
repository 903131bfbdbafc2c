-- +goose Up
-- A result recorded against the wrong patient is resolved in one of three ways (the laboratory
-- clinician's review, C3): refiled to an order of the right patient (the new row there and the
-- withdrawn row name each other), recollection ordered (the original patient's order chased
-- again), or its owner cannot be identified (with the reason). misfiled_version guards the
-- resolution against a stale list.
ALTER TABLE lab_results ADD COLUMN misfiled_outcome TEXT NOT NULL DEFAULT '';
ALTER TABLE lab_results ADD COLUMN misfiled_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE lab_results ADD COLUMN refiled_to BIGINT REFERENCES lab_results(id);
ALTER TABLE lab_results ADD COLUMN refiled_from BIGINT REFERENCES lab_results(id);
-- Resolved before this with a note alone.
UPDATE lab_results SET misfiled_outcome = 'note' WHERE misfiled_resolved_at IS NOT NULL;

-- C2: a critical value whose owner is not yet found is an alert of its own (misfiled = 1),
-- open until the value is resolved, escalated by the sweep as any critical alert.
ALTER TABLE critical_alerts ADD COLUMN misfiled INTEGER NOT NULL DEFAULT 0;
INSERT INTO critical_alerts (result_id, order_id, patient_id, doctor_id, raised_at, misfiled)
  SELECT r.id, r.order_id, o.patient_id, o.ordered_by, r.retracted_at, 1 FROM lab_results r JOIN lab_orders o ON o.id = r.order_id
  WHERE r.retract_category = 'wrong_patient' AND r.misfiled_resolved_at IS NULL AND r.retracted_at IS NOT NULL
    AND r.flag IN ('LL', 'HH', 'AA');
