-- +goose Up
-- Issue 56: online booking (ADR 43). A patient's request for a slot, from the public page:
-- held while its one-time code is out (status 'held' until held_until), then 'requested' once
-- the code came back (or 'accepted' at once when the clinic books online requests directly and
-- the patient matched one record beyond doubt), then 'accepted' or 'declined' by the desk. A
-- held (not lapsed) or requested row occupies its doctor's time exactly as an appointment
-- does; the check runs under the doctor's calendar lock, as the desk's booking does.
CREATE TABLE booking_requests (
  id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code_id          BIGINT NOT NULL UNIQUE REFERENCES patient_codes(id),
  doctor_id        BIGINT NOT NULL REFERENCES users(id),
  visit_type       TEXT NOT NULL,
  starts_at        TIMESTAMP NOT NULL,
  ends_at          TIMESTAMP NOT NULL,
  duration_minutes INTEGER NOT NULL,
  first_name       TEXT NOT NULL,
  last_name        TEXT NOT NULL,
  birth_date       TEXT NOT NULL,
  channel          TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  address          TEXT NOT NULL,
  language         TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('held', 'requested', 'accepted', 'declined')),
  held_until       TIMESTAMP NOT NULL,
  match_id         BIGINT REFERENCES patients(id),
  appointment_id   BIGINT REFERENCES appointments(id),
  decline_reason   TEXT NOT NULL DEFAULT '',
  created_at       TIMESTAMP NOT NULL,
  updated_at       TIMESTAMP NOT NULL,
  decided_by       BIGINT REFERENCES users(id),
  version          INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX booking_requests_doctor_time ON booking_requests (doctor_id, starts_at);
CREATE INDEX booking_requests_status ON booking_requests (status, starts_at);
