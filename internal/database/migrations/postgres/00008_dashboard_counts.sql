-- +goose Up
-- Counts the dashboard reads, kept by triggers in the same transaction as every write (so
-- they are never out of step, whatever writes: the API, the seeder, an operator's SQL).
-- At millions of rows the dashboard then reads a few hundred rows instead of counting.
-- The triggers run once per statement over its transition tables (a bulk insert of 20,000
-- rows is one grouped UPSERT, not 20,000): each adds what the new rows count and takes away
-- what the old rows counted, so an update that changes nothing counted nets out to nothing.

-- Appointments per clinic day and status.
CREATE TABLE appointment_day_counts (
  day    TEXT COLLATE "C" NOT NULL,
  status TEXT NOT NULL,
  n      BIGINT NOT NULL,
  PRIMARY KEY (day, status)
);
INSERT INTO appointment_day_counts (day, status, n) SELECT day, status, COUNT(*) FROM appointments GROUP BY day, status;
-- +goose StatementBegin
CREATE FUNCTION appointment_day_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO appointment_day_counts (day, status, n)
      SELECT day, status, COUNT(*) FROM new_rows GROUP BY day, status
      ON CONFLICT (day, status) DO UPDATE SET n = appointment_day_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO appointment_day_counts (day, status, n)
      SELECT day, status, -COUNT(*) FROM old_rows GROUP BY day, status
      ON CONFLICT (day, status) DO UPDATE SET n = appointment_day_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO appointment_day_counts (day, status, n)
      SELECT day, status, SUM(d) FROM (
        SELECT day, status, 1 AS d FROM new_rows UNION ALL SELECT day, status, -1 FROM old_rows) x
      GROUP BY day, status HAVING SUM(d) <> 0
      ON CONFLICT (day, status) DO UPDATE SET n = appointment_day_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER appointments_count_insert AFTER INSERT ON appointments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION appointment_day_counts_apply();
CREATE TRIGGER appointments_count_update AFTER UPDATE ON appointments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION appointment_day_counts_apply();
CREATE TRIGGER appointments_count_delete AFTER DELETE ON appointments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION appointment_day_counts_apply();

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
CREATE FUNCTION patient_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO patient_month_counts (month, n)
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), COUNT(*) FROM new_rows GROUP BY 1
      ON CONFLICT (month) DO UPDATE SET n = patient_month_counts.n + EXCLUDED.n;
    INSERT INTO patient_birth_counts (birth_year, sex, n)
      SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, COUNT(*) FROM new_rows WHERE archived_at IS NULL GROUP BY 1, 2
      ON CONFLICT (birth_year, sex) DO UPDATE SET n = patient_birth_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO patient_month_counts (month, n)
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), -COUNT(*) FROM old_rows GROUP BY 1
      ON CONFLICT (month) DO UPDATE SET n = patient_month_counts.n + EXCLUDED.n;
    INSERT INTO patient_birth_counts (birth_year, sex, n)
      SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, -COUNT(*) FROM old_rows WHERE archived_at IS NULL GROUP BY 1, 2
      ON CONFLICT (birth_year, sex) DO UPDATE SET n = patient_birth_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO patient_month_counts (month, n)
      SELECT month, SUM(d) FROM (
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, 1 AS d FROM new_rows
        UNION ALL SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), -1 FROM old_rows) x
      GROUP BY month HAVING SUM(d) <> 0
      ON CONFLICT (month) DO UPDATE SET n = patient_month_counts.n + EXCLUDED.n;
    INSERT INTO patient_birth_counts (birth_year, sex, n)
      SELECT birth_year, sex, SUM(d) FROM (
        SELECT CAST(substr(birth_date, 1, 4) AS INTEGER) AS birth_year, sex, 1 AS d FROM new_rows WHERE archived_at IS NULL
        UNION ALL SELECT CAST(substr(birth_date, 1, 4) AS INTEGER), sex, -1 FROM old_rows WHERE archived_at IS NULL) x
      GROUP BY birth_year, sex HAVING SUM(d) <> 0
      ON CONFLICT (birth_year, sex) DO UPDATE SET n = patient_birth_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER patients_count_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_counts_apply();
CREATE TRIGGER patients_count_update AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_counts_apply();
CREATE TRIGGER patients_count_delete AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_counts_apply();

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
CREATE FUNCTION diagnosis_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO diagnosis_month_counts (month, code, n)
      SELECT substr(a.day, 1, 7), c.code, COUNT(*)
      FROM new_rows v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code)
      WHERE v.status = 'signed' GROUP BY 1, 2
      ON CONFLICT (month, code) DO UPDATE SET n = diagnosis_month_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO diagnosis_month_counts (month, code, n)
      SELECT month, code, SUM(d) FROM (
        SELECT substr(a.day, 1, 7) AS month, c.code, 1 AS d
          FROM new_rows v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code) WHERE v.status = 'signed'
        UNION ALL
        SELECT substr(a.day, 1, 7), c.code, -1
          FROM old_rows v JOIN appointments a ON a.id = v.appointment_id, LATERAL visit_codes(v.content) AS c(code) WHERE v.status = 'signed') x
      GROUP BY month, code HAVING SUM(d) <> 0
      ON CONFLICT (month, code) DO UPDATE SET n = diagnosis_month_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER visits_diagnoses_insert AFTER INSERT ON visits
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION diagnosis_counts_apply();
CREATE TRIGGER visits_diagnoses_update AFTER UPDATE ON visits
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION diagnosis_counts_apply();

-- +goose Down
DROP TRIGGER visits_diagnoses_update ON visits;
DROP TRIGGER visits_diagnoses_insert ON visits;
DROP FUNCTION diagnosis_counts_apply();
DROP FUNCTION visit_codes(TEXT);
DROP TABLE diagnosis_month_counts;
DROP TRIGGER patients_count_delete ON patients;
DROP TRIGGER patients_count_update ON patients;
DROP TRIGGER patients_count_insert ON patients;
DROP FUNCTION patient_counts_apply();
DROP TABLE patient_birth_counts;
DROP TABLE patient_month_counts;
DROP TRIGGER appointments_count_delete ON appointments;
DROP TRIGGER appointments_count_update ON appointments;
DROP TRIGGER appointments_count_insert ON appointments;
DROP FUNCTION appointment_day_counts_apply();
DROP TABLE appointment_day_counts;
