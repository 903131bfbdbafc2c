-- +goose Up
-- Issue 55 (m9, ADR 41): a results-catalogue test names the price-list service it is charged
-- as (by the service's code; '' for none), and a charge a lab order put on a bill names the
-- order, so that ordering charges once and a cancellation before collection takes it off.
ALTER TABLE lab_tests ADD COLUMN service_code TEXT NOT NULL DEFAULT '';
ALTER TABLE bill_lines ADD COLUMN lab_order_id BIGINT;
-- One charge per order on a bill (a replacement bill copies it once more, on itself).
CREATE UNIQUE INDEX bill_lines_lab_order ON bill_lines (bill_id, lab_order_id) WHERE lab_order_id IS NOT NULL;
CREATE INDEX bill_lines_by_lab_order ON bill_lines (lab_order_id) WHERE lab_order_id IS NOT NULL;

-- The shipped tests name the starter price list's codes: LAB-<test> for laboratory tests,
-- and the few whose starter service has another code.
UPDATE lab_tests SET service_code = 'LAB-' || code WHERE kind = 'lab';
UPDATE lab_tests SET service_code = 'LAB-FBS' WHERE code = 'GLU';
UPDATE lab_tests SET service_code = 'PROC-ECG' WHERE code = 'ECG';
UPDATE lab_tests SET service_code = 'IMG-CXR' WHERE code = 'XR-CHEST';
