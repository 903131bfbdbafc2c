-- +goose Up
-- Counts the dashboard reads, kept by triggers in the same transaction as every write (so
-- they are never out of step, whatever writes: the API, the seeder, an operator's SQL).
-- At millions of rows the dashboard then reads a few hundred rows instead of counting.

-- Appointments per clinic day and status.
CREATE TABLE appointment_day_counts (
  day    TEXT NOT NULL,
  status TEXT NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (day, status)
);
INSERT INTO appointment_day_counts (day, status, n) SELECT day, status, COUNT(*) FROM appointments GROUP BY day, status;
-- +goose StatementBegin
CREATE TRIGGER appointments_count_insert AFTER INSERT ON appointments
BEGIN
  INSERT INTO appointment_day_counts (day, status, n) VALUES (NEW.day, NEW.status, 1)
    ON CONFLICT (day, status) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_count_update AFTER UPDATE OF day, status ON appointments
WHEN OLD.day <> NEW.day OR OLD.status <> NEW.status
BEGIN
  UPDATE appointment_day_counts SET n = n - 1 WHERE day = OLD.day AND status = OLD.status;
  INSERT INTO appointment_day_counts (day, status, n) VALUES (NEW.day, NEW.status, 1)
    ON CONFLICT (day, status) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_count_delete AFTER DELETE ON appointments
BEGIN
  UPDATE appointment_day_counts SET n = n - 1 WHERE day = OLD.day AND status = OLD.status;
END;
-- +goose StatementEnd

-- Patients registered per month (of created_at, UTC).
CREATE TABLE patient_month_counts (
  month TEXT PRIMARY KEY, -- YYYY-MM
  n     INTEGER NOT NULL
);
INSERT INTO patient_month_counts (month, n) SELECT substr(created_at, 1, 7), COUNT(*) FROM patients GROUP BY 1;
-- +goose StatementBegin
CREATE TRIGGER patients_month_insert AFTER INSERT ON patients
BEGIN
  INSERT INTO patient_month_counts (month, n) VALUES (substr(NEW.created_at, 1, 7), 1)
    ON CONFLICT (month) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER patients_month_update AFTER UPDATE OF created_at ON patients
WHEN substr(OLD.created_at, 1, 7) <> substr(NEW.created_at, 1, 7)
BEGIN
  UPDATE patient_month_counts SET n = n - 1 WHERE month = substr(OLD.created_at, 1, 7);
  INSERT INTO patient_month_counts (month, n) VALUES (substr(NEW.created_at, 1, 7), 1)
    ON CONFLICT (month) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER patients_month_delete AFTER DELETE ON patients
BEGIN
  UPDATE patient_month_counts SET n = n - 1 WHERE month = substr(OLD.created_at, 1, 7);
END;
-- +goose StatementEnd

-- Patients in the register (not archived) by year of birth and sex: ages by band.
CREATE TABLE patient_birth_counts (
  birth_year INTEGER NOT NULL,
  sex        TEXT NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (birth_year, sex)
);
INSERT INTO patient_birth_counts (birth_year, sex, n)
  SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, COUNT(*) FROM patients WHERE archived_at IS NULL GROUP BY 1, 2;
-- +goose StatementBegin
CREATE TRIGGER patients_birth_insert AFTER INSERT ON patients WHEN NEW.archived_at IS NULL
BEGIN
  INSERT INTO patient_birth_counts (birth_year, sex, n) VALUES (CAST(substr(NEW.birth_date, 1, 4) AS INTEGER), NEW.sex, 1)
    ON CONFLICT (birth_year, sex) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER patients_birth_update AFTER UPDATE OF birth_date, sex, archived_at ON patients
WHEN OLD.birth_date <> NEW.birth_date OR OLD.sex <> NEW.sex OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
BEGIN
  UPDATE patient_birth_counts SET n = n - 1
    WHERE OLD.archived_at IS NULL AND birth_year = CAST(substr(OLD.birth_date, 1, 4) AS INTEGER) AND sex = OLD.sex;
  INSERT INTO patient_birth_counts (birth_year, sex, n)
    SELECT CAST(substr(NEW.birth_date, 1, 4) AS INTEGER), NEW.sex, 1 WHERE NEW.archived_at IS NULL
    ON CONFLICT (birth_year, sex) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER patients_birth_delete AFTER DELETE ON patients WHEN OLD.archived_at IS NULL
BEGIN
  UPDATE patient_birth_counts SET n = n - 1 WHERE birth_year = CAST(substr(OLD.birth_date, 1, 4) AS INTEGER) AND sex = OLD.sex;
END;
-- +goose StatementEnd

-- Coded diagnoses of signed visits per month of the visit's day: each code once per visit.
-- An amendment takes away what the visit counted before and counts what it says now.
CREATE TABLE diagnosis_month_counts (
  month TEXT NOT NULL, -- YYYY-MM
  code  TEXT NOT NULL,
  n     INTEGER NOT NULL,
  PRIMARY KEY (month, code)
);
CREATE INDEX diagnosis_month_counts_top ON diagnosis_month_counts (month, n);
INSERT INTO diagnosis_month_counts (month, code, n)
  SELECT month, code, COUNT(*) FROM (
    SELECT DISTINCT v.appointment_id, substr(a.day, 1, 7) AS month, json_extract(j.value, '$.code') AS code
    FROM visits v JOIN appointments a ON a.id = v.appointment_id, json_each(v.content, '$.diagnoses') j
    WHERE v.status = 'signed'
  ) WHERE code <> ''
  GROUP BY month, code;
-- +goose StatementBegin
CREATE TRIGGER visits_diagnoses_insert AFTER INSERT ON visits WHEN NEW.status = 'signed'
BEGIN
  INSERT INTO diagnosis_month_counts (month, code, n)
    SELECT (SELECT substr(day, 1, 7) FROM appointments WHERE id = NEW.appointment_id), code, 1
    FROM (SELECT DISTINCT json_extract(value, '$.code') AS code FROM json_each(NEW.content, '$.diagnoses')) WHERE code <> ''
    ON CONFLICT (month, code) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER visits_diagnoses_update AFTER UPDATE OF status, content ON visits
WHEN OLD.status = 'signed' OR NEW.status = 'signed'
BEGIN
  UPDATE diagnosis_month_counts SET n = n - 1
    WHERE OLD.status = 'signed'
      AND month = (SELECT substr(day, 1, 7) FROM appointments WHERE id = OLD.appointment_id)
      AND code IN (SELECT json_extract(value, '$.code') FROM json_each(OLD.content, '$.diagnoses'));
  INSERT INTO diagnosis_month_counts (month, code, n)
    SELECT (SELECT substr(day, 1, 7) FROM appointments WHERE id = NEW.appointment_id), code, 1
    FROM (SELECT DISTINCT json_extract(value, '$.code') AS code FROM json_each(NEW.content, '$.diagnoses')) WHERE NEW.status = 'signed' AND code <> ''
    ON CONFLICT (month, code) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER visits_diagnoses_update;
DROP TRIGGER visits_diagnoses_insert;
DROP TABLE diagnosis_month_counts;
DROP TRIGGER patients_birth_delete;
DROP TRIGGER patients_birth_update;
DROP TRIGGER patients_birth_insert;
DROP TABLE patient_birth_counts;
DROP TRIGGER patients_month_delete;
DROP TRIGGER patients_month_update;
DROP TRIGGER patients_month_insert;
DROP TABLE patient_month_counts;
DROP TRIGGER appointments_count_delete;
DROP TRIGGER appointments_count_update;
DROP TRIGGER appointments_count_insert;
DROP TABLE appointment_day_counts;
