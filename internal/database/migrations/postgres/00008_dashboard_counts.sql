-- +goose Up
-- Counts the dashboard reads, kept by triggers in the same transaction as every write (so
-- they are never out of step, whatever writes: the API, the seeder, an operator's SQL).
-- At millions of rows the dashboard then reads a few hundred rows instead of counting.

-- Appointments per clinic day and status.
CREATE TABLE appointment_day_counts (
  day    TEXT COLLATE "C" NOT NULL,
  status TEXT NOT NULL,
  n      BIGINT NOT NULL,
  PRIMARY KEY (day, status)
);
INSERT INTO appointment_day_counts (day, status, n) SELECT day, status, COUNT(*) FROM appointments GROUP BY day, status;
-- +goose StatementBegin
CREATE FUNCTION appointment_day_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.day = NEW.day AND OLD.status = NEW.status THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE appointment_day_counts SET n = n - 1 WHERE day = OLD.day AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO appointment_day_counts (day, status, n) VALUES (NEW.day, NEW.status, 1)
      ON CONFLICT (day, status) DO UPDATE SET n = appointment_day_counts.n + 1;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER appointments_count AFTER INSERT OR DELETE OR UPDATE OF day, status ON appointments
  FOR EACH ROW EXECUTE FUNCTION appointment_day_count();

-- Patients registered per month (of created_at, UTC).
CREATE TABLE patient_month_counts (
  month TEXT COLLATE "C" PRIMARY KEY, -- YYYY-MM
  n     BIGINT NOT NULL
);
INSERT INTO patient_month_counts (month, n) SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), COUNT(*) FROM patients GROUP BY 1;

-- Patients in the register (not archived) by year of birth and sex: ages by band.
CREATE TABLE patient_birth_counts (
  birth_year INTEGER NOT NULL,
  sex        TEXT NOT NULL,
  n          BIGINT NOT NULL,
  PRIMARY KEY (birth_year, sex)
);
INSERT INTO patient_birth_counts (birth_year, sex, n)
  SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, COUNT(*) FROM patients WHERE archived_at IS NULL GROUP BY 1, 2;
-- +goose StatementBegin
CREATE FUNCTION patient_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND date_trunc('month', OLD.created_at AT TIME ZONE 'UTC') <> date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')) THEN
    UPDATE patient_month_counts SET n = n - 1 WHERE month = to_char(OLD.created_at AT TIME ZONE 'UTC', 'YYYY-MM');
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND date_trunc('month', OLD.created_at AT TIME ZONE 'UTC') <> date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')) THEN
    INSERT INTO patient_month_counts (month, n) VALUES (to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM'), 1)
      ON CONFLICT (month) DO UPDATE SET n = patient_month_counts.n + 1;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.birth_date = NEW.birth_date AND OLD.sex = NEW.sex
     AND (OLD.archived_at IS NULL) = (NEW.archived_at IS NULL) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.archived_at IS NULL THEN
    UPDATE patient_birth_counts SET n = n - 1 WHERE birth_year = CAST(substr(OLD.birth_date, 1, 4) AS INTEGER) AND sex = OLD.sex;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.archived_at IS NULL THEN
    INSERT INTO patient_birth_counts (birth_year, sex, n) VALUES (CAST(substr(NEW.birth_date, 1, 4) AS INTEGER), NEW.sex, 1)
      ON CONFLICT (birth_year, sex) DO UPDATE SET n = patient_birth_counts.n + 1;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER patients_count AFTER INSERT OR DELETE OR UPDATE OF birth_date, sex, archived_at, created_at ON patients
  FOR EACH ROW EXECUTE FUNCTION patient_counts();

-- Coded diagnoses of signed visits per month of the visit's day: each code once per visit.
-- An amendment takes away what the visit counted before and counts what it says now.
CREATE TABLE diagnosis_month_counts (
  month TEXT COLLATE "C" NOT NULL, -- YYYY-MM
  code  TEXT COLLATE "C" NOT NULL,
  n     BIGINT NOT NULL,
  PRIMARY KEY (month, code)
);
CREATE INDEX diagnosis_month_counts_top ON diagnosis_month_counts (month, n);
-- The distinct codes a visit's content names (none when it has no list of diagnoses).
-- +goose StatementBegin
CREATE FUNCTION visit_codes(content TEXT) RETURNS SETOF TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT j->>'code' FROM jsonb_array_elements(
    CASE WHEN jsonb_typeof(content::jsonb -> 'diagnoses') = 'array' THEN content::jsonb -> 'diagnoses' ELSE '[]'::jsonb END) j
  WHERE j->>'code' <> ''
$$;
-- +goose StatementEnd
INSERT INTO diagnosis_month_counts (month, code, n)
  SELECT substr(a.day, 1, 7), c.code, COUNT(*)
  FROM visits v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code)
  WHERE v.status = 'signed'
  GROUP BY 1, 2;
-- +goose StatementBegin
CREATE FUNCTION diagnosis_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'signed' THEN
    UPDATE diagnosis_month_counts SET n = n - 1
      WHERE month = (SELECT substr(day, 1, 7) FROM appointments WHERE id = OLD.appointment_id)
        AND code IN (SELECT visit_codes(OLD.content));
  END IF;
  IF NEW.status = 'signed' THEN
    INSERT INTO diagnosis_month_counts (month, code, n)
      SELECT (SELECT substr(day, 1, 7) FROM appointments WHERE id = NEW.appointment_id), code, 1
      FROM visit_codes(NEW.content) AS c(code)
      ON CONFLICT (month, code) DO UPDATE SET n = diagnosis_month_counts.n + 1;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER visits_diagnoses AFTER INSERT OR UPDATE OF status, content ON visits
  FOR EACH ROW EXECUTE FUNCTION diagnosis_counts();

-- +goose Down
DROP TRIGGER visits_diagnoses ON visits;
DROP FUNCTION diagnosis_counts();
DROP FUNCTION visit_codes(TEXT);
DROP TABLE diagnosis_month_counts;
DROP TRIGGER patients_count ON patients;
DROP FUNCTION patient_counts();
DROP TABLE patient_birth_counts;
DROP TABLE patient_month_counts;
DROP TRIGGER appointments_count ON appointments;
DROP FUNCTION appointment_day_count();
DROP TABLE appointment_day_counts;
