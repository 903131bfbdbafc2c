-- +goose Up
-- A finding of the current-medicines list's review (a duplicate or an interaction between
-- two medicines the patient takes) that a prescriber keeps knowingly, for a reason (ADR 25):
-- a deliberate long-term pair (warfarin with low-dose aspirin after a stent) is then shown
-- as kept, no longer as one to resolve. Each medicine is named by its stable key (a recorded
-- entry "taken-ID", a line of a prescription here "rx-ID-LINE") and what it is (its
-- catalogue entry "m:ID", or its words "n:…"), first_key < second_key; finding_key names the
-- finding by its kind and the substance or rule that makes it. The keep lapses by itself
-- when either medicine stops, is entered in error, is corrected to another medicine or is
-- replaced by a new prescription: the pair no longer matches. A row reopened (no reason)
-- withdraws the keep before it — a prescriber's, or the reason a line here was prescribed
-- with — for the doctor to review the pair again; the newest row of a pair says.
CREATE TABLE medicine_pairs_kept (
  id          INTEGER PRIMARY KEY,
  patient_id  INTEGER NOT NULL REFERENCES patients(id),
  first_key   TEXT NOT NULL,
  first_what  TEXT NOT NULL,
  second_key  TEXT NOT NULL,
  second_what TEXT NOT NULL,
  finding_key TEXT NOT NULL,
  reason      TEXT NOT NULL,
  kept_at     TIMESTAMP NOT NULL,
  kept_by     INTEGER REFERENCES users(id),
  reopened    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX medicine_pairs_kept_patient ON medicine_pairs_kept (patient_id, id);

-- +goose Down
DROP TABLE medicine_pairs_kept;
