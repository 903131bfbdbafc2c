package document

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/immunisation"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/profile"
	"emr/internal/result"
	"emr/internal/settings"
)

// Store reads and writes templates and documents.
type Store struct {
	DB    *database.DB
	Loc   *time.Location // the clinic's time zone: a document's date and year
	Codes *catalogue.Store
	// Visits and Results read the visit and the lab orders a document is written from.
	Visits  *appointment.Store
	Results *result.Store
	Now     func() time.Time
	// PortalCode, when set, makes a new patient portal access code for a visit summary printed
	// by a user who may manage portal access, inside the print's transaction ("" when the
	// record's access is off): the code
	// prints on the page and is kept only as the portal's keyed hash, never in the document.
	PortalCode func(ctx context.Context, tx *sql.Tx, patientID, userID int64) (string, error)
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Statuses of an issued document.
const (
	Issued    = "issued"
	Cancelled = "cancelled"
)

// Doctor is the issuing doctor as the document keeps them, copied when it is issued.
type Doctor = profile.Signer

// FieldValue is a declared field as it was filled.
type FieldValue struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Value string `json:"value"`
}

// Document is an issued document.
type Document struct {
	ID            int64           `json:"id"`
	Kind          string          `json:"kind"`
	Number        string          `json:"number"`
	Code          string          `json:"code"`
	Title         string          `json:"title"`
	Language      string          `json:"language"`
	Paper         string          `json:"paper"`
	PatientID     int64           `json:"patient_id"`
	AppointmentID *int64          `json:"appointment_id"`
	Doctor        Doctor          `json:"doctor"`
	Clinic        settings.Clinic `json:"clinic"`
	HasSignature  bool            `json:"has_signature"`
	Fields        []FieldValue    `json:"fields"`
	Content       []Block         `json:"content"`
	ContentHash   string          `json:"content_hash"`
	Status        string          `json:"status"`
	IssuedAt      time.Time       `json:"issued_at"`
	CancelReason  string          `json:"cancel_reason"`
	CancelledAt   *time.Time      `json:"cancelled_at"`
	Version       int             `json:"version"`
	// PortalCode is a new portal access code a visit summary's print carries (never stored
	// with the document); empty otherwise.
	PortalCode string `json:"portal_code,omitempty"`
	// PrintedResults are the results the document printed ({{visit.results}}), each order with
	// the ids of its result rows as they were then: what the release to the patient checks
	// (ADR 45). Nil for a document issued before they were kept; empty when it printed none.
	PrintedResults []PrintedResult `json:"-"`
}

// PrintedResult is a lab order whose results a document printed, and the ids of the result
// rows it printed.
type PrintedResult struct {
	Order   int64   `json:"order"`
	Results []int64 `json:"results"`
}

// printedResults are the results a document of lines prints from src: the visit's orders with
// a current value, when it names {{visit.results}}; none otherwise.
func printedResults(lines []line, src sources) []PrintedResult {
	out := []PrintedResult{}
	if !slices.Contains(placeholders(lines), "visit.results") {
		return out
	}
	for _, o := range src.results {
		if len(o.Results) == 0 {
			continue
		}
		p := PrintedResult{Order: o.ID}
		for _, r := range o.Results {
			p.Results = append(p.Results, r.ID)
		}
		out = append(out, p)
	}
	return out
}

// IssueInput is what a doctor sends to issue a document.
type IssueInput struct {
	TemplateID    int64             `json:"template_id"`
	PatientID     int64             `json:"patient_id"`
	AppointmentID *int64            `json:"appointment_id"`
	Fields        map[string]string `json:"fields"`
}

// Limits of a field's value.
const (
	maxFieldText = 300
	maxLongText  = 4000
)

// checkFields trims the filled values and checks them against the declared fields;
// values of undeclared fields are dropped. A number is read as lang (the writer's) writes it
// and kept as printLang (the document's) does.
func checkFields(lang, printLang string, declared []Field, filled map[string]string) (map[string]string, error) {
	var v apperr.Validation
	out := map[string]string{}
	for _, f := range declared {
		value := strings.TrimSpace(strings.ReplaceAll(filled[f.Key], "\r\n", "\n"))
		at := "fields." + f.Key
		limit := maxFieldText
		if f.Type == "long_text" {
			limit = maxLongText
		}
		switch {
		case value == "" && f.Required:
			v.Add(at, "validation.required")
		case value == "":
		case utf8.RuneCountInString(value) > limit:
			v.Add(at, "validation.too_long")
		case f.Type != "long_text" && strings.Contains(value, "\n"):
			v.Add(at, "document.one_line")
		case f.Type == "number":
			n, err := i18n.ParseDecimal(lang, value)
			switch key := i18n.NumberKey(err); {
			case err != nil && key != i18n.ErrNotANumber.Error():
				v.Add(at, key)
			case err != nil || n < 0 || n > 1e6:
				v.Add(at, "document.bad_number")
			default:
				value = i18n.Decimal(printLang, n)
			}
		case f.Type == "date":
			if _, err := time.Parse(time.DateOnly, value); err != nil {
				v.Add(at, "validation.date_format")
			}
		}
		out[f.Key] = value
	}
	return out, v.Err()
}

// needsVisit says whether a template of kind with the parsed lines is issued from a visit
// only: it names a value of a visit, or it is a visit summary.
func needsVisit(kind string, lines []line) bool {
	return kind == "visit_summary" || slices.ContainsFunc(placeholders(lines), func(p string) bool { return strings.HasPrefix(p, "visit.") })
}

// gather reads what a document of patientID (and appointmentID) is filled from, as the
// doctor with id sees it in lang.
func (s *Store) gather(ctx context.Context, doctorID, patientID int64, appointmentID *int64, lang string) (sources, error) {
	src := sources{lang: lang, today: s.now().In(s.Loc)}
	var v apperr.Validation
	records, err := patient.Records(ctx, s.DB, []int64{patientID})
	if err != nil {
		return src, err
	}
	p, ok := records[patientID]
	if !ok {
		v.Add("patient_id", "patient.not_found")
		return src, v.Err()
	}
	src.patient = p
	if src.medicines, err = prescription.CurrentMedicines(ctx, s.DB, patientID, s.now()); err != nil {
		return src, err
	}
	if src.takesNone, err = prescription.TakesNone(ctx, s.DB, patientID); err != nil {
		return src, err
	}
	if src.card, err = immunisation.CardOf(ctx, s.DB, patientID, lang, src.today.Format(time.DateOnly), i18n.ListSeparator(lang)); err != nil {
		return src, err
	}
	if appointmentID != nil {
		a, err := s.Visits.Get(ctx, *appointmentID)
		if errors.Is(err, apperr.ErrNotFound) || (err == nil && a.PatientID != patientID) {
			v.Add("appointment_id", "appointment.not_found")
			return src, v.Err()
		}
		if err != nil {
			return src, err
		}
		visit, err := s.Visits.Visit(ctx, a.ID, lang)
		if err != nil {
			return src, err
		}
		src.appointment, src.visit = &a, &visit
		if src.stopped, err = prescription.StoppedAtVisit(ctx, s.DB, a.ID); err != nil {
			return src, err
		}
		if src.results, err = s.Results.VisitOrders(ctx, a.ID, lang); err != nil {
			return src, err
		}
		if len(visit.Orders) > 0 {
			tests, err := s.Codes.LabTests(ctx, lang)
			if err != nil {
				return src, err
			}
			src.orderKinds = make(map[string]string, len(tests))
			for _, t := range tests {
				src.orderKinds[t.Code] = t.Kind
			}
		}
	}
	if src.doctor, err = profile.Get(ctx, s.DB, doctorID); err != nil {
		return src, err
	}
	src.clinic, err = settings.ReadClinic(ctx, s.DB)
	return src, err
}

// Preview renders a template body (saved or not) in language for a patient and,
// optionally, a visit, as the user would issue it now with the fields filled so far.
func (s *Store) Preview(ctx context.Context, e audit.Event, in PreviewInput) ([]Block, error) {
	if !slices.Contains(i18n.Languages, in.Language) {
		var v apperr.Validation
		v.Add("language", "document.bad_language")
		return nil, v.Err()
	}
	blocks, err := s.preview(ctx, e.ActorID, in)
	if err != nil {
		return nil, err
	}
	// The preview shows the patient's (and the visit's) data: a read of the record.
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "document.preview", "patient", strconv.FormatInt(in.PatientID, 10), audit.Success, in.PatientID
	return blocks, audit.Access(ctx, s.DB, e)
}

// preview renders the template for the patient as user userID would issue it.
func (s *Store) preview(ctx context.Context, userID int64, in PreviewInput) ([]Block, error) {
	lines, err := parseBody(in.Body, in.Fields)
	if err != nil {
		return nil, err
	}
	src, err := s.gather(ctx, userID, in.PatientID, in.AppointmentID, in.Language)
	if err != nil {
		return nil, err
	}
	// The number is given when the document is issued: the preview shows where it goes.
	return render(lines, src.values("······", in.Fields, in.Values)), nil
}

// PreviewInput is a template as written so far, and whom to fill it for.
type PreviewInput struct {
	Body          string            `json:"body"`
	Fields        []Field           `json:"fields"`
	Language      string            `json:"language"`
	PatientID     int64             `json:"patient_id"`
	AppointmentID *int64            `json:"appointment_id"`
	Values        map[string]string `json:"values"`
}

// codeAlphabet writes a verification code: 16 characters of 5 bits, 80 random bits.
var codeAlphabet = base32.StdEncoding.WithPadding(base32.NoPadding)

func newCode() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b) // crypto/rand does not fail (Go 1.24)
	return codeAlphabet.EncodeToString(b)
}

// NormalCode is a code as typed or scanned, upper case without separators; "" when it
// cannot be a code.
func NormalCode(s string) string {
	s = strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(s))
	if len(s) != 16 {
		return ""
	}
	if _, err := codeAlphabet.DecodeString(s); err != nil {
		return ""
	}
	return s
}

// initials are the first letters of a person's names, in the order lang writes them. A name
// written in Chinese characters has no initials: it is masked as a receiver expects, the
// first and last characters shown (王*明, 王*).
func initials(lang string, p patient.Patient) string {
	var out []string
	for _, part := range strings.Fields(i18n.PersonName(lang, p.FirstName, p.MiddleName, p.LastName)) {
		if rs := []rune(part); !strings.ContainsFunc(part, func(r rune) bool { return !unicode.Is(unicode.Han, r) }) {
			switch len(rs) {
			case 1:
				out = append(out, part)
			case 2:
				out = append(out, string(rs[0])+"*")
			default:
				out = append(out, string(rs[0])+strings.Repeat("*", len(rs)-2)+string(rs[len(rs)-1]))
			}
			continue
		}
		r, _ := utf8.DecodeRuneInString(part)
		out = append(out, string(unicode.ToUpper(r))+".")
	}
	return strings.Join(out, " ")
}

// hashOf is the SHA-256 of what a document says, in hex: what the verify page shows and
// the print carries (its first 16 digits), so a copy can be compared with the record.
func hashOf(number, title string, issued time.Time, doctor Doctor, fields []FieldValue, content []Block) string {
	b, _ := json.Marshal(struct {
		Number  string       `json:"number"`
		Title   string       `json:"title"`
		Issued  string       `json:"issued"`
		Doctor  Doctor       `json:"doctor"`
		Fields  []FieldValue `json:"fields"`
		Content []Block      `json:"content"`
	}{number, title, issued.UTC().Format(time.RFC3339), doctor, fields, content})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Issue renders the template for the patient (and visit) with the fields filled, and
// keeps it: the content, the doctor's details and signature are copied in, the number is
// the next of the kind's year (gap-free: the counter's row is held until the commit), the
// code is random. Audited with the patient.
func (s *Store) Issue(ctx context.Context, e audit.Event, in IssueInput) (Document, error) {
	t, err := getTemplate(ctx, s.DB, in.TemplateID)
	if errors.Is(err, apperr.ErrNotFound) || (err == nil && !t.Active) {
		var v apperr.Validation
		v.Add("template_id", "document.template_not_found")
		return Document{}, v.Err()
	}
	if err != nil {
		return Document{}, err
	}
	lines, err := parseBody(t.Body, t.Fields)
	if err != nil {
		return Document{}, err
	}
	filled, err := checkFields(i18n.FromContext(ctx), t.Language, t.Fields, in.Fields)
	if err != nil {
		return Document{}, err
	}
	if in.AppointmentID == nil && t.NeedsVisit {
		var v apperr.Validation
		v.Add("appointment_id", "document.needs_visit")
		return Document{}, v.Err()
	}
	src, err := s.gather(ctx, e.ActorID, in.PatientID, in.AppointmentID, t.Language)
	if err != nil {
		return Document{}, err
	}
	if t.Kind == "visit_summary" && src.visit.Status != "signed" {
		return Document{}, apperr.Conflict("document.visit_not_signed")
	}
	doctor, drawing, err := profile.SignerOf(ctx, s.DB, src.doctor.ID)
	if err != nil {
		return Document{}, err
	}
	fieldValues := make([]FieldValue, 0, len(t.Fields))
	for _, f := range t.Fields {
		value := filled[f.Key]
		if f.Type == "date" {
			value = day(t.Language, value)
		}
		fieldValues = append(fieldValues, FieldValue{Key: f.Key, Label: f.Label, Value: value})
	}
	birthYear := any(nil)
	if b, err := time.Parse(time.DateOnly, src.patient.BirthDate); err == nil {
		birthYear = b.Year()
	}
	doctorJSON, _ := json.Marshal(doctor)
	clinicJSON, _ := json.Marshal(src.clinic)
	fieldsJSON, _ := json.Marshal(fieldValues)
	printedJSON, _ := json.Marshal(printedResults(lines, src))
	var id int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := patient.CheckActive(ctx, tx, s.DB.Engine, in.PatientID); err != nil {
			return err
		}
		now := s.now()
		year := now.In(s.Loc).Year()
		seq, err := database.AddToCounter(ctx, tx, "document:"+t.Kind+":"+strconv.Itoa(year), 1)
		if err != nil {
			return err
		}
		number := fmt.Sprintf("%s-%d-%06d", prefixes[t.Kind], year, seq)
		content := render(lines, src.values(number, t.Fields, filled))
		contentJSON, _ := json.Marshal(content)
		hash := hashOf(number, t.Name, now, doctor, fieldValues, content)
		if err := tx.QueryRowContext(ctx, `INSERT INTO documents (kind, year, seq, number, code, template_id, title, language, paper,
			patient_id, appointment_id, initials, birth_year, doctor_id, doctor, clinic, signature_type, signature, fields, content,
			content_hash, issued_at, printed_results) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
			RETURNING id`, t.Kind, year, seq, number, newCode(), t.ID, t.Name, t.Language, t.Paper, in.PatientID, in.AppointmentID,
			initials(t.Language, src.patient), birthYear, e.ActorID, string(doctorJSON), string(clinicJSON), drawing.ContentType, drawing.Data,
			string(fieldsJSON), string(contentJSON), hash, now, string(printedJSON)).Scan(&id); err != nil {
			return fmt.Errorf("insert document: %w", err)
		}
		if err := keep(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, e, id, in.PatientID, "document.issue", number)
	})
	if err != nil {
		return Document{}, err
	}
	return s.Get(ctx, id)
}

func (s *Store) audit(ctx context.Context, tx *sql.Tx, e audit.Event, id, patientID int64, action, detail string) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = action, "document", strconv.FormatInt(id, 10), audit.Success, patientID
	e.Detail = strings.TrimSpace(fmt.Sprintf("patient %d %s", patientID, detail))
	return audit.Record(ctx, tx, e)
}

const documentColumns = `id, kind, number, code, title, language, paper, patient_id, appointment_id, doctor, clinic,
	signature IS NOT NULL, fields, content, content_hash, status, issued_at, cancel_reason, cancelled_at, version, printed_results`

func scanDocument(row interface{ Scan(...any) error }) (Document, error) {
	var d Document
	var appointmentID sql.NullInt64
	var doctor, clinic, fields, content string
	var cancelled sql.NullTime
	var printed sql.NullString
	if err := row.Scan(&d.ID, &d.Kind, &d.Number, &d.Code, &d.Title, &d.Language, &d.Paper, &d.PatientID, &appointmentID, &doctor,
		&clinic, &d.HasSignature, &fields, &content, &d.ContentHash, &d.Status, &d.IssuedAt, &d.CancelReason, &cancelled, &d.Version, &printed); err != nil {
		return d, err
	}
	if printed.Valid {
		if err := json.Unmarshal([]byte(printed.String), &d.PrintedResults); err != nil {
			return d, fmt.Errorf("document %d: %w", d.ID, err)
		}
	}
	if appointmentID.Valid {
		d.AppointmentID = &appointmentID.Int64
	}
	if cancelled.Valid {
		t := cancelled.Time.UTC()
		d.CancelledAt = &t
	}
	d.IssuedAt = d.IssuedAt.UTC()
	for _, part := range []struct {
		src string
		dst any
	}{{doctor, &d.Doctor}, {clinic, &d.Clinic}, {fields, &d.Fields}, {content, &d.Content}} {
		if err := json.Unmarshal([]byte(part.src), part.dst); err != nil {
			return d, fmt.Errorf("document %d: %w", d.ID, err)
		}
	}
	return d, nil
}

func get(ctx context.Context, q database.Querier, id int64) (Document, error) {
	d, err := scanDocument(q.QueryRowContext(ctx, `SELECT `+documentColumns+` FROM documents WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, apperr.NotFound("document.not_found")
	}
	if err != nil {
		return d, fmt.Errorf("read document: %w", err)
	}
	return d, nil
}

// Get reads one document.
func (s *Store) Get(ctx context.Context, id int64) (Document, error) { return get(ctx, s.DB, id) }

// Read is Get for a person, whose read of the document is audited (as e's) with its patient.
func (s *Store) Read(ctx context.Context, e audit.Event, id int64) (Document, error) {
	d, err := s.Get(ctx, id)
	if err != nil {
		return d, err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "document.read", "document", strconv.FormatInt(d.ID, 10), audit.Success, d.PatientID
	return d, audit.Access(ctx, s.DB, e)
}

// ReadList is List for a person, whose read of a patient's documents is audited (as e's).
func (s *Store) ReadList(ctx context.Context, e audit.Event, patientID, appointmentID int64) ([]Document, error) {
	list, err := s.List(ctx, patientID, appointmentID)
	if err != nil || len(list) == 0 {
		return list, err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "document.list", "patient", strconv.FormatInt(list[0].PatientID, 10), audit.Success, list[0].PatientID
	return list, audit.Access(ctx, s.DB, e)
}

// MaxListed is the most documents a list answers (a patient's, newest first).
const MaxListed = 200

// List reads a patient's documents, or a visit's, newest first.
func (s *Store) List(ctx context.Context, patientID, appointmentID int64) ([]Document, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT `+documentColumns+` FROM documents
		WHERE ($1 = 0 OR patient_id = $1) AND ($2 = 0 OR appointment_id = $2) ORDER BY id DESC LIMIT $3`, patientID, appointmentID, MaxListed)
	if err != nil {
		return nil, fmt.Errorf("list documents: %w", err)
	}
	defer rows.Close()
	out := []Document{}
	for rows.Next() {
		d, err := scanDocument(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Print records a print or reprint of a document (audited with the patient); a cancelled
// one is not printed. A visit summary carries a new portal access code only when withCode
// (the printing user may manage portal access): viewing a record is not enough to mint one.
func (s *Store) Print(ctx context.Context, e audit.Event, id int64, withCode bool) (Document, error) {
	d, err := s.Get(ctx, id)
	if err != nil {
		return d, err
	}
	if d.Status == Cancelled {
		return d, apperr.Conflict("document.cancelled")
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "document.print", "document", strconv.FormatInt(d.ID, 10), audit.Success, d.PatientID
	e.Detail = fmt.Sprintf("patient %d %s", d.PatientID, d.Number)
	if d.Kind != "visit_summary" || s.PortalCode == nil || !withCode {
		return d, audit.Access(ctx, s.DB, e)
	}
	// A visit summary of a record with portal access prints a new access code: made and
	// audited with the print, in one transaction.
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		code, err := s.PortalCode(ctx, tx, d.PatientID, e.ActorID)
		if err != nil {
			return err
		}
		d.PortalCode = code
		if code != "" {
			e.Detail += ", portal access code"
		}
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Document{}, err
	}
	return d, nil
}

// Cancel withdraws an issued document with a reason; it stays on record, and its verify
// page says it is cancelled.
func (s *Store) Cancel(ctx context.Context, e audit.Event, id int64, version int, reason string) (Document, error) {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return Document{}, err
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		d, err := get(ctx, tx, id)
		switch {
		case err != nil:
			return err
		case d.Status == Cancelled:
			return apperr.Conflict("document.cancelled")
		case d.Version != version:
			return apperr.Conflict("error.conflict")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE documents SET status = $1, cancel_reason = $2, cancelled_at = $3, cancelled_by = $4,
			version = version + 1 WHERE id = $5`, Cancelled, reason, s.now(), e.ActorID, id); err != nil {
			return fmt.Errorf("cancel document: %w", err)
		}
		if err := keep(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, e, id, d.PatientID, "document.cancel", d.Number)
	})
	if err != nil {
		return Document{}, err
	}
	return s.Get(ctx, id)
}

// Signature returns the signature a document carries.
func (s *Store) Signature(ctx context.Context, id int64) (profile.Drawing, error) {
	var d profile.Drawing
	err := s.DB.QueryRowContext(ctx, `SELECT signature_type, signature FROM documents WHERE id = $1 AND signature IS NOT NULL`, id).Scan(&d.ContentType, &d.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return d, apperr.NotFound("document.not_found")
	}
	return d, err
}

// Verification is all the verify page tells of a document: nothing of the patient but
// initials and birth year.
type Verification struct {
	Kind        string
	Number      string
	IssuedAt    time.Time
	Doctor      string
	Clinic      string
	Initials    string
	BirthYear   int
	Status      string
	CancelledAt *time.Time
	Hash        string
}

// Verify looks a code up (as NormalCode gives it) and records a found document's look-up in
// the audit log with the visitor's address; an unknown code is answered not found and only
// counted (metrics), so that guessing writes no rows.
func (s *Store) Verify(ctx context.Context, e audit.Event, code string) (Verification, error) {
	var v Verification
	var id, patientID int64
	var doctor, clinic string
	var birthYear sql.NullInt64
	var cancelled sql.NullTime
	err := s.DB.QueryRowContext(ctx, `SELECT id, patient_id, kind, number, issued_at, doctor, clinic, initials, birth_year, status,
		cancelled_at, content_hash FROM documents WHERE code = $1`, code).Scan(&id, &patientID, &v.Kind, &v.Number, &v.IssuedAt,
		&doctor, &clinic, &v.Initials, &birthYear, &v.Status, &cancelled, &v.Hash)
	e.Action, e.EntityType, e.Outcome = "document.verify", "document", audit.Success
	if errors.Is(err, sql.ErrNoRows) {
		return v, apperr.NotFound("document.not_found")
	}
	if err != nil {
		return v, fmt.Errorf("verify document: %w", err)
	}
	var d Doctor
	var c settings.Clinic
	_ = json.Unmarshal([]byte(doctor), &d)
	_ = json.Unmarshal([]byte(clinic), &c)
	v.Doctor, v.Clinic, v.BirthYear, v.IssuedAt = d.Name, c.Name, int(birthYear.Int64), v.IssuedAt.In(s.Loc)
	if cancelled.Valid {
		t := cancelled.Time.In(s.Loc)
		v.CancelledAt = &t
	}
	e.EntityID, e.PatientID, e.Detail = strconv.FormatInt(id, 10), patientID, fmt.Sprintf("patient %d %s %s", patientID, v.Number, v.Status)
	return v, audit.Access(ctx, s.DB, e)
}

// Page lists documents for programs (the FHIR API), in id order from after (below it when
// desc): of patientID when it is not 0, among ids when there are any; up to limit.
func (s *Store) Page(ctx context.Context, ids []int64, patientID, after int64, desc bool, limit int) ([]Document, error) {
	where, tail, args := database.KeysetPage(s.DB, "id", ids, "patient_id", patientID, after, desc, limit)
	rows, err := s.DB.QueryContext(ctx, `SELECT `+documentColumns+` FROM documents WHERE `+where+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("page documents: %w", err)
	}
	defer rows.Close()
	var out []Document
	for rows.Next() {
		d, err := scanDocument(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// HTML is a document as a page of its own: its blocks, every text escaped (a value is never
// markup), in its language. It is what programs are given (the FHIR API's attachment).
func (d Document) HTML() string {
	var b strings.Builder
	runs := func(list []Run) {
		for _, r := range list {
			text := strings.ReplaceAll(html.EscapeString(r.Text), "\n", "<br>")
			if r.Bold {
				text = "<b>" + text + "</b>"
			}
			b.WriteString(text)
		}
	}
	b.WriteString(`<!doctype html><html lang="` + html.EscapeString(d.Language) + `"><head><meta charset="utf-8"><title>` + html.EscapeString(d.Title) + `</title></head><body>`)
	for _, bl := range d.Content {
		switch bl.Type {
		case "h1", "h2", "p":
			b.WriteString("<" + bl.Type + ">")
			runs(bl.Runs)
			b.WriteString("</" + bl.Type + ">")
		case "ul":
			b.WriteString("<ul>")
			for _, item := range bl.Items {
				b.WriteString("<li>")
				runs(item)
				b.WriteString("</li>")
			}
			b.WriteString("</ul>")
		case "table":
			b.WriteString("<table>")
			for _, row := range bl.Rows {
				b.WriteString("<tr>")
				for _, cell := range row {
					b.WriteString("<td>")
					runs(cell)
					b.WriteString("</td>")
				}
				b.WriteString("</tr>")
			}
			b.WriteString("</table>")
		case "hr":
			b.WriteString("<hr>")
		}
	}
	b.WriteString("</body></html>")
	return b.String()
}

// VersionKind names the kept versions of documents (database.KeepVersion).
const VersionKind = "document"

// keep keeps document id as it now is in q (the change's transaction), as the version it has.
func keep(ctx context.Context, q database.Querier, id int64) error {
	d, err := get(ctx, q, id)
	if err != nil {
		return err
	}
	at := d.IssuedAt
	if d.CancelledAt != nil {
		at = *d.CancelledAt
	}
	return database.KeepVersion(ctx, q, VersionKind, id, d.Version, at, d)
}
