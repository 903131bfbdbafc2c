-- +goose Up
-- Issue 55 (M3, ADR 25): a line of a prescription issued here that the patient no longer
-- takes — stopped by the patient, by another prescriber, or by a doctor here — recorded
-- without cancelling the whole prescription. The line leaves the current medicines (and the
-- papers that list them) from stopped_on, and the safety check once its substance's washout
-- is over. One stop per line: line is the 0-based index in the prescription's items.
CREATE TABLE prescription_lines_stopped (
  id              INTEGER PRIMARY KEY,
  prescription_id INTEGER NOT NULL REFERENCES prescriptions(id),
  line            INTEGER NOT NULL,
  patient_id      INTEGER NOT NULL REFERENCES patients(id),
  stopped_on      TEXT NOT NULL,
  reason          TEXT NOT NULL,
  stopped_at      TIMESTAMP NOT NULL,
  stopped_by      INTEGER REFERENCES users(id),
  UNIQUE (prescription_id, line)
);
CREATE INDEX prescription_lines_stopped_patient ON prescription_lines_stopped (patient_id, id);

-- Issue 55 (M4, ADR 25): the patient was asked and takes no medicines — so that a paper can
-- tell "asked, takes none" from "never asked", as the allergy status does (ADR 16). The
-- latest answer, when and by whom; a medicine recorded later outweighs it.
CREATE TABLE medicines_none (
  patient_id INTEGER PRIMARY KEY REFERENCES patients(id),
  asked_at   TIMESTAMP NOT NULL,
  asked_by   INTEGER REFERENCES users(id)
);
