package billing

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/httpjson"
	"emr/internal/patient"
)

// BillQuery is what the front desk looks a bill up by: a bill's number or a patient's name,
// number or phone (Q), one patient, a status (draft; unpaid or paid of the final ones; void),
// and the days the bill was written in the clinic's calendar.
type BillQuery struct {
	Q         string
	PatientID int64
	Status    string
	From, To  string
	Page      int
	PerPage   int
}

// BillStatuses are the statuses a bills list filters by.
var BillStatuses = []string{"draft", "unpaid", "paid", "void"}

// BillSummary is a row of the bills list.
type BillSummary struct {
	ID            int64      `json:"id"`
	Number        string     `json:"number"`
	Status        string     `json:"status"`
	Patient       PatientRef `json:"patient"`
	AppointmentID *int64     `json:"appointment_id"`
	Currency      string     `json:"currency"`
	MinorUnits    int        `json:"minor_units"`
	Total         Money      `json:"total"`
	Paid          Money      `json:"paid"`
	Credited      Money      `json:"credited"`
	Balance       Money      `json:"balance"`
	CreatedAt     time.Time  `json:"created_at"`
	FinalisedAt   *time.Time `json:"finalised_at"`
}

// BillList is a page of bills, newest first, and how many match.
type BillList struct {
	Data    []BillSummary `json:"data"`
	Total   int           `json:"total"`
	Page    int           `json:"page"`
	PerPage int           `json:"per_page"`
}

var billNumber = regexp.MustCompile(`^(?i:BL-)?(\d{4})-(\d{1,6})$`)

// ParseBillQuery reads ?q=&patient_id=&status=&from=&to=&page=&per_page= and checks each.
func ParseBillQuery(get func(string) string) (BillQuery, error) {
	var v apperr.Validation
	q := BillQuery{Q: strings.TrimSpace(get("q")), Status: get("status"), From: get("from"), To: get("to")}
	q.Page, q.PerPage = httpjson.Page(get, &v)
	if len([]rune(q.Q)) > 100 {
		v.Add("q", "validation.too_long")
	}
	if p := get("patient_id"); p != "" {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id <= 0 {
			v.Add("patient_id", "validation.query")
		}
		q.PatientID = id
	}
	if q.Status != "" && !slices.Contains(BillStatuses, q.Status) {
		v.Add("status", "validation.invalid_choice")
	}
	for field, day := range map[string]string{"from": q.From, "to": q.To} {
		if _, err := time.Parse(time.DateOnly, day); day != "" && err != nil {
			v.Add(field, "validation.date_format")
		}
	}
	return q, v.Err()
}

// Bills lists the bills that match q, newest first, a page at a time. A bill's number is
// looked up by its index; a patient's name, number or phone through the register's search
// (its first 50 matches); the other filters narrow those rows.
func (s *Store) ListBills(ctx context.Context, q BillQuery) (BillList, error) {
	out := BillList{Data: []BillSummary{}, Page: q.Page, PerPage: q.PerPage}
	where, args := []string{"1 = 1"}, []any{}
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	if q.PatientID != 0 {
		where = append(where, "patient_id = "+arg(q.PatientID))
	}
	if m := billNumber.FindStringSubmatch(q.Q); m != nil {
		year, _ := strconv.Atoi(m[1])
		seq, _ := strconv.Atoi(m[2])
		where = append(where, "year = "+arg(year)+" AND seq = "+arg(seq))
	} else if q.Q != "" {
		found, err := s.Patients.List(ctx, patient.ListQuery{Q: q.Q, Page: 1, PerPage: 50, Sort: "name"})
		if err != nil {
			return out, err
		}
		if len(found.Data) == 0 {
			return out, nil
		}
		ids := make([]string, len(found.Data))
		for i, p := range found.Data {
			ids[i] = arg(p.ID)
		}
		where = append(where, "patient_id IN ("+strings.Join(ids, ", ")+")")
	}
	// Each status is a condition written out as its partial index says it (bills_drafts,
	// bills_void, bills_open), so that both engines read that index, not the table.
	switch q.Status {
	case "draft":
		where = append(where, "status = 'draft'")
	case "void":
		where = append(where, "status = 'void'")
	case "unpaid":
		where = append(where, "status = 'final' AND total > paid + credited")
	case "paid":
		where = append(where, "status = 'final' AND paid + credited >= total")
	}
	if q.From != "" {
		from, _ := time.ParseInLocation(time.DateOnly, q.From, s.loc())
		where = append(where, "created_at >= "+arg(from))
	}
	if q.To != "" {
		to, _ := time.ParseInLocation(time.DateOnly, q.To, s.loc())
		where = append(where, "created_at < "+arg(to.AddDate(0, 0, 1)))
	}
	cond := strings.Join(where, " AND ")
	if err := s.countBills(ctx, q, cond, args, &out.Total); err != nil {
		return out, err
	}
	limit, offset := arg(q.PerPage), arg((q.Page-1)*q.PerPage)
	rows, err := s.DB.QueryContext(ctx, `SELECT id, COALESCE(number, ''), status, patient_id, appointment_id, currency, total, paid, credited,
		created_at, finalised_at FROM bills WHERE `+cond+` ORDER BY id DESC LIMIT `+limit+` OFFSET `+offset, args...)
	if err != nil {
		return out, fmt.Errorf("list bills: %w", err)
	}
	defer rows.Close()
	var patients []int64
	for rows.Next() {
		var b BillSummary
		var appt sql.NullInt64
		var finalised nullTime
		if err := rows.Scan(&b.ID, &b.Number, &b.Status, &b.Patient.ID, &appt, &b.Currency, &b.Total, &b.Paid, &b.Credited, &b.CreatedAt, &finalised); err != nil {
			return out, fmt.Errorf("list bills: %w", err)
		}
		b.AppointmentID, b.FinalisedAt, b.MinorUnits = idOrNil(appt), finalised.ptr(), MinorUnits(b.Currency)
		b.Balance = owed(b.Status, b.Total, b.Credited, b.Paid)
		patients = append(patients, b.Patient.ID)
		out.Data = append(out.Data, b)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("list bills: %w", err)
	}
	refs, err := patientRefs(ctx, s.DB, patients)
	for i := range out.Data {
		out.Data[i].Patient = refs[out.Data[i].Patient.ID]
	}
	return out, err
}

type nullTime struct{ sql.NullTime }

func (t nullTime) ptr() *time.Time {
	if !t.Valid {
		return nil
	}
	return &t.Time
}

// countBills counts the bills of a list. The paid ones, unfiltered otherwise, are most of all
// bills: they are counted as the final bills (the days' sums) less those that owe (their
// partial index), never by reading the table; every other list counts through its index.
func (s *Store) countBills(ctx context.Context, q BillQuery, cond string, args []any, total *int) error {
	if q.Status == "paid" && q.Q == "" && q.PatientID == 0 && q.From == "" && q.To == "" {
		finals, err := s.days().Finals(ctx, s.DB)
		if err != nil {
			return err
		}
		var owing int
		if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM bills WHERE status = 'final' AND total > paid + credited`).Scan(&owing); err != nil {
			return fmt.Errorf("list bills: %w", err)
		}
		*total = finals - owing
		return nil
	}
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM bills WHERE `+cond, args...).Scan(total); err != nil {
		return fmt.Errorf("list bills: %w", err)
	}
	return nil
}
