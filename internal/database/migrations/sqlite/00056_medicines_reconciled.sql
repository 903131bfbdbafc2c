-- +goose Up
-- The clinical pharmacist's review of the current-medicines list (ADR 25):
-- reconciliation fields of a recorded medicine, all optional — route (a prescription's
-- route), indication, the last dose taken (a date, or a date and time YYYY-MM-DDTHH:MM),
-- adherence (as_directed, irregular, not_taking) and where the information came from
-- (patient, carer, pharmacy, other_clinic, packet).
ALTER TABLE medicines_taken ADD COLUMN route TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines_taken ADD COLUMN indication TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines_taken ADD COLUMN last_dose TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines_taken ADD COLUMN adherence TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines_taken ADD COLUMN info_source TEXT NOT NULL DEFAULT '';
-- A stop's category (course_completed, side_effect, not_effective, patient_choice,
-- replaced, doctor_decision, other; empty on a stop recorded before) and the visit it was
-- stopped at, for that visit's summary.
ALTER TABLE medicines_taken ADD COLUMN stop_category TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines_taken ADD COLUMN stopped_appointment_id INTEGER REFERENCES appointments(id);
-- Entered in error: an entry made by accident (wrong patient, wrong medicine), with its
-- reason — not a medicine the patient took and stopped. It leaves the list, the check and
-- the papers; its history keeps it.
ALTER TABLE medicines_taken ADD COLUMN error_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines_taken ADD COLUMN error_at TIMESTAMP;
ALTER TABLE medicines_taken ADD COLUMN error_by INTEGER REFERENCES users(id);
-- Recorded or corrected by someone who may not prescribe: not yet reviewed by a doctor
-- until a prescriber marks it reviewed (who and when).
ALTER TABLE medicines_taken ADD COLUMN needs_review BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE medicines_taken ADD COLUMN reviewed_at TIMESTAMP;
ALTER TABLE medicines_taken ADD COLUMN reviewed_by INTEGER REFERENCES users(id);
-- A line of a prescription here stopped: the same category, and the visit.
ALTER TABLE prescription_lines_stopped ADD COLUMN category TEXT NOT NULL DEFAULT '';
ALTER TABLE prescription_lines_stopped ADD COLUMN appointment_id INTEGER REFERENCES appointments(id);
