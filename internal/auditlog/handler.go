package auditlog

import (
	"encoding/csv"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
)

// Handler serves the audit log viewer's API.
type Handler struct{ DB *database.DB }

// Routes is the audit log's route table.
func (h *Handler) Routes() []auth.Route {
	view := auth.Need(auth.ViewAuditLog)
	return []auth.Route{
		{Method: "GET", Path: "/api/audit-events", Access: view, Handler: h.list},
		{Method: "GET", Path: "/api/audit-events/export", Access: view, Handler: h.export},
	}
}

// Event is one audit event as the viewer shows it.
type Event struct {
	ID         int64     `json:"id"`
	Seq        *int64    `json:"seq"` // nil for an event older than the hash chain
	At         time.Time `json:"at"`
	ActorID    *int64    `json:"actor_id"`
	ActorName  string    `json:"actor_name"`
	Action     string    `json:"action"`
	EntityType string    `json:"entity_type"`
	EntityID   string    `json:"entity_id"`
	PatientID  int64     `json:"patient_id"`
	PatientMRN string    `json:"patient_mrn"`
	Address    string    `json:"address"`
	Outcome    string    `json:"outcome"`
	Detail     string    `json:"detail"`
	Emergency  bool      `json:"emergency"`
	Hash       string    `json:"hash"`
}

// countCap bounds the count of a filter: past it the viewer says "more than".
const countCap = 10_000

// Page is one page of events with the cursors of its neighbours.
type Page struct {
	Data []Event `json:"data"`
	Meta struct {
		Total       *int   `json:"total"`        // matching events, at most countCap; counted on the first page only
		TotalCapped bool   `json:"total_capped"` // more than countCap match
		PerPage     int    `json:"per_page"`
		Next        string `json:"next"` // "" on the last page
		Prev        string `json:"prev"` // "" on the first page
	} `json:"meta"`
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	q, err := ParseQuery(r.URL.Query().Get, true)
	var page Page
	if err == nil {
		page, err = List(r.Context(), h.DB, q)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, page)
}

// csvHeader names the export's columns; they are stable identifiers for scripts.
var csvHeader = []string{"seq", "at", "user", "action", "entity_type", "entity_id", "patient_id", "patient_number",
	"outcome", "address", "emergency", "detail", "hash"}

// export streams every event of the filter as CSV, in the filter's order. The export is
// audited first, with the filter, so even an interrupted one is on record.
func (h *Handler) export(w http.ResponseWriter, r *http.Request) {
	q, err := ParseQuery(r.URL.Query().Get, false)
	if err == nil {
		e := auth.AuditEvent(r)
		e.Action, e.EntityType, e.Outcome, e.Detail = "audit.export", "audit_log", audit.Success, r.URL.RawQuery
		err = audit.Record(r.Context(), h.DB, e)
	}
	var rows *Rows
	if err == nil {
		rows, err = Export(r.Context(), h.DB, q)
	}
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	defer rows.Close()
	name := "audit-events-" + time.Now().UTC().Format("20060102-150405") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Cache-Control", "no-store")
	out := csv.NewWriter(w)
	_ = out.Write(csvHeader)
	for n := 1; rows.Next(); n++ {
		e, err := rows.Event()
		if err != nil {
			return // the status is sent; a truncated file is the only signal left
		}
		seq := ""
		if e.Seq != nil {
			seq = strconv.FormatInt(*e.Seq, 10)
		}
		patient := ""
		if e.PatientID != 0 {
			patient = strconv.FormatInt(e.PatientID, 10)
		}
		_ = out.Write([]string{seq, e.At.Format(time.RFC3339Nano), cell(e.ActorName), e.Action, e.EntityType, cell(e.EntityID), patient,
			cell(e.PatientMRN), e.Outcome, cell(e.Address), strconv.FormatBool(e.Emergency), cell(e.Detail), e.Hash})
		if n%1000 == 0 {
			out.Flush()
		}
	}
	out.Flush()
}

// cell keeps a spreadsheet from reading a value as a formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
