// Package dashboard answers the dashboard's figures. They come from counts the database keeps
// by trigger in the same transaction as every write (migration 00008), so each answer reads a
// few hundred rows however large the clinic's records grow. On PostgreSQL the triggers append
// deltas rather than update a shared row (migration 00013, ADR 21); readers add the deltas
// not yet folded in, and Fold folds them. Each part has its own route and
// permission: a user sees only the figures of what they may see.
package dashboard

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/database"
)

// Store reads the counts the database keeps.
type Store struct {
	DB    *database.DB
	Codes *catalogue.Store
	// Loc is the clinic's time zone: "today" and "this month" are the clinic's.
	Loc *time.Location
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

func (s *Store) today() time.Time {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	return now().In(s.Loc)
}

// Statuses of appointments, in the order the dashboard shows them.
var statuses = []string{"booked", "arrived", "in-progress", "completed", "cancelled", "no-show"}

// Days is how many days the appointments chart covers, today included.
const Days = 30

// DayCounts are one day's appointments by status.
type DayCounts struct {
	Day      string         `json:"day"`
	ByStatus map[string]int `json:"by_status"`
}

// Appointments is the appointments part of the dashboard.
type Appointments struct {
	Today DayCounts `json:"today"`
	// Waiting is how many patients have arrived today and wait to be seen.
	Waiting int `json:"waiting"`
	// Mine is the calling doctor's own queue today (absent for users who are not doctors).
	Mine *DayCounts `json:"mine,omitempty"`
	// Days are the last Days days, oldest first, every day present.
	Days []DayCounts `json:"days"`
}

func emptyCounts(day string) DayCounts {
	c := DayCounts{Day: day, ByStatus: make(map[string]int, len(statuses))}
	for _, s := range statuses {
		c.ByStatus[s] = 0
	}
	return c
}

// AppointmentCounts are the appointments figures as p sees them.
func (s *Store) AppointmentCounts(ctx context.Context, p *auth.Principal) (*Appointments, error) {
	today := s.today()
	first := today.AddDate(0, 0, 1-Days).Format(time.DateOnly)
	days := make([]DayCounts, Days)
	index := make(map[string]int, Days)
	for i := range days {
		d := today.AddDate(0, 0, i+1-Days).Format(time.DateOnly)
		days[i], index[d] = emptyCounts(d), i
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT day, status, n FROM appointment_day_counts WHERE day >= $1 AND day <= $2
		UNION ALL SELECT day, status, n FROM appointment_day_deltas WHERE day >= $1 AND day <= $2`, first, today.Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("dashboard appointments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var day, status string
		var n int
		if err := rows.Scan(&day, &status, &n); err != nil {
			return nil, fmt.Errorf("dashboard appointments: %w", err)
		}
		if i, ok := index[day]; ok {
			days[i].ByStatus[status] += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("dashboard appointments: %w", err)
	}
	out := &Appointments{Today: days[Days-1], Days: days}
	out.Waiting = out.Today.ByStatus["arrived"]
	if slices.Contains(p.Roles, "doctor") {
		mine := emptyCounts(out.Today.Day)
		counts, err := appointment.DoctorDay(ctx, s.DB, mine.Day, p.UserID)
		if err != nil {
			return nil, fmt.Errorf("dashboard queue: %w", err)
		}
		maps.Copy(mine.ByStatus, counts)
		out.Mine = &mine
	}
	return out, nil
}

// MonthCount is a count for one month (YYYY-MM).
type MonthCount struct {
	Month string `json:"month"`
	N     int    `json:"n"`
}

// AgeBand is the register's patients of one age band, by sex.
type AgeBand struct {
	// Band is "0-9", "10-19", … "80+"; ages are counted from the year of birth.
	Band  string         `json:"band"`
	BySex map[string]int `json:"by_sex"`
}

// Patients is the patients part of the dashboard.
type Patients struct {
	// Total is the register (patients not archived).
	Total int `json:"total"`
	// ThisMonth is how many were registered this month.
	ThisMonth int `json:"this_month"`
	// Months are the last 12 months' registrations, oldest first, every month present.
	Months []MonthCount `json:"months"`
	Ages   []AgeBand    `json:"ages"`
}

// Sexes of the register, in the order the dashboard shows them.
var sexes = []string{"female", "male", "other", "unknown"}

// PatientCounts are the register's figures.
func (s *Store) PatientCounts(ctx context.Context) (*Patients, error) {
	today := s.today()
	thisMonth := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, s.Loc)
	out := &Patients{Months: make([]MonthCount, 12)}
	index := map[string]int{}
	for i := range out.Months {
		m := thisMonth.AddDate(0, i-11, 0).Format("2006-01")
		out.Months[i], index[m] = MonthCount{Month: m}, i
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT month, n FROM patient_month_counts WHERE month >= $1 AND month <= $2
		UNION ALL SELECT month, n FROM patient_month_deltas WHERE month >= $1 AND month <= $2`, out.Months[0].Month, out.Months[11].Month)
	if err != nil {
		return nil, fmt.Errorf("dashboard patients: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m MonthCount
		if err := rows.Scan(&m.Month, &m.N); err != nil {
			return nil, fmt.Errorf("dashboard patients: %w", err)
		}
		if i, ok := index[m.Month]; ok {
			out.Months[i].N += m.N
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("dashboard patients: %w", err)
	}
	out.ThisMonth = out.Months[11].N

	const bands = 9 // 0-9 … 70-79, 80+
	for b := range bands {
		label := strconv.Itoa(b*10) + "-" + strconv.Itoa(b*10+9)
		if b == bands-1 {
			label = strconv.Itoa(b*10) + "+"
		}
		band := AgeBand{Band: label, BySex: make(map[string]int, len(sexes))}
		for _, sex := range sexes {
			band.BySex[sex] = 0
		}
		out.Ages = append(out.Ages, band)
	}
	rows, err = s.DB.QueryContext(ctx, `SELECT birth_year, sex, n FROM patient_birth_counts WHERE n > 0
		UNION ALL SELECT birth_year, sex, n FROM patient_birth_deltas`)
	if err != nil {
		return nil, fmt.Errorf("dashboard ages: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var year, n int
		var sex string
		if err := rows.Scan(&year, &sex, &n); err != nil {
			return nil, fmt.Errorf("dashboard ages: %w", err)
		}
		out.Total += n
		band := min(max(today.Year()-year, 0)/10, bands-1)
		out.Ages[band].BySex[sex] += n
	}
	return out, rows.Err()
}

// CodeCount is how many signed visits of the month name one diagnosis code.
type CodeCount struct {
	Code  string `json:"code"`
	Label string `json:"label"`
	N     int    `json:"n"`
}

// Diagnoses is the diagnosis part of the dashboard.
type Diagnoses struct {
	Month string      `json:"month"`
	Top   []CodeCount `json:"top"`
}

// TopDiagnoses are this month's ten most frequent codes of signed visits, labelled in lang.
func (s *Store) TopDiagnoses(ctx context.Context, lang string) (*Diagnoses, error) {
	out := &Diagnoses{Month: s.today().Format("2006-01"), Top: []CodeCount{}}
	// The month's codes by count (a few hundred rows of the (month, n) index), with the
	// changes not yet folded in.
	rows, err := s.DB.QueryContext(ctx, `SELECT code, SUM(n) FROM (
		SELECT code, n FROM diagnosis_month_counts WHERE month = $1 AND n > 0
		UNION ALL SELECT code, n FROM diagnosis_month_deltas WHERE month = $1) x
		GROUP BY code HAVING SUM(n) > 0 ORDER BY SUM(n) DESC, code LIMIT 10`, out.Month)
	if err != nil {
		return nil, fmt.Errorf("dashboard diagnoses: %w", err)
	}
	defer rows.Close()
	var codes []string
	for rows.Next() {
		var c CodeCount
		if err := rows.Scan(&c.Code, &c.N); err != nil {
			return nil, fmt.Errorf("dashboard diagnoses: %w", err)
		}
		out.Top = append(out.Top, c)
		codes = append(codes, c.Code)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("dashboard diagnoses: %w", err)
	}
	labels, err := s.Codes.Labels(ctx, s.DB, codes, lang)
	if err != nil {
		return nil, err
	}
	for i := range out.Top {
		out.Top[i].Label = labels[out.Top[i].Code]
	}
	return out, nil
}
