-- +goose Up
-- Issue 59: the clinic's due list and the parent's reminder (ADR 49).
-- A dose past its latest day is no longer given: the due list leaves it out from that day on,
-- without waiting for the child's row to be rebuilt ('' for none).
ALTER TABLE immunisation_due ADD COLUMN latest_on TEXT NOT NULL DEFAULT '';
-- The list's indexes: each an equality on archived (the list shows the children on the
-- register) then a range, in the list's order (due day, child, antigen), so that a page is a
-- walk of an index range stopped at the page's end.
-- All and overdue, by due day; the rest of what the list reads and filters on carried too,
-- so that a page and a count read the index alone.
CREATE INDEX immunisation_due_date ON immunisation_due (archived, due_on, patient_id, antigen, overdue_on, birth_date, latest_on, dose_number);
-- The doses due and not yet overdue, by the day they become overdue: their list and count walk
-- these rows, not every overdue one before them.
CREATE INDEX immunisation_due_overdue ON immunisation_due (archived, overdue_on, patient_id, antigen, due_on, birth_date, latest_on, dose_number);
-- One antigen, by due day and by overdue day.
CREATE INDEX immunisation_due_antigen ON immunisation_due (antigen, archived, due_on, patient_id);
CREATE INDEX immunisation_due_antigen_overdue ON immunisation_due (antigen, archived, overdue_on, patient_id);
-- An age band: a range of birth dates (then sorted: a band is a small part of the list), of
-- every antigen or one.
CREATE INDEX immunisation_due_birth ON immunisation_due (archived, birth_date);
CREATE INDEX immunisation_due_antigen_birth ON immunisation_due (antigen, archived, birth_date);
-- Every reminder written to the outbox for a child's dose: one per child, antigen and dose,
-- never a second (the key refuses it), from the list (manual) or the daily pass (automatic).
CREATE TABLE immunisation_reminders (
  patient_id   BIGINT NOT NULL REFERENCES patients(id),
  antigen      TEXT NOT NULL,
  dose_number  INTEGER NOT NULL,
  channel      TEXT NOT NULL,
  how          TEXT NOT NULL CHECK (how IN ('manual', 'automatic')),
  sent_at      TIMESTAMP NOT NULL,
  created_by   BIGINT REFERENCES users(id),
  PRIMARY KEY (patient_id, antigen, dose_number)
);
-- A rebuild of every child's due rows (the clinic's schedules changed), resumable: the last
-- patient done; the row is gone once the rebuild has finished.
CREATE TABLE immunisation_due_rebuild (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  after_patient BIGINT NOT NULL,
  requested_at  TIMESTAMP NOT NULL
);
