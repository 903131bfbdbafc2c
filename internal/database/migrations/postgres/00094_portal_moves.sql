-- +goose Up
-- The patient's own moves of an appointment in the portal (ADR 44, the review of moving): each
-- one kept, so that a visit is moved at most a few times a day (every move messages the
-- patient and the queue).
CREATE TABLE portal_moves (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  appointment_id  BIGINT NOT NULL REFERENCES appointments(id),
  moved_at        TIMESTAMP NOT NULL
);
CREATE INDEX portal_moves_appointment ON portal_moves (appointment_id, moved_at);
