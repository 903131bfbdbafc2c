package auditlog

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"time"

	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/patient"
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

// Event is one audit event as the viewer shows it: with its patient's number.
type Event struct {
	audit.Stored
	PatientMRN string `json:"patient_mrn"`
}

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
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	found, err := audit.List(r.Context(), h.DB, q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	var page Page
	if page.Data, err = h.withNumbers(r.Context(), found.Events); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	lang := i18n.FromRequest(r)
	for i := range page.Data {
		page.Data[i].Detail = audit.DetailIn(lang, page.Data[i].Detail)
	}
	page.Meta.Total, page.Meta.TotalCapped, page.Meta.PerPage = found.Total, found.TotalCapped, found.PerPage
	page.Meta.Next, page.Meta.Prev = found.Next, found.Prev
	httpjson.Respond(w, http.StatusOK, page)
}

// csvHeader names the export's columns; they are stable identifiers for scripts. The detail
// is as stored, as the hash covers it; detail_text is it in the reader's language.
var csvHeader = []string{"seq", "at", "user", "action", "entity_type", "entity_id", "patient_id", "patient_number",
	"outcome", "address", "emergency", "detail", "hash", "credential", "detail_text"}

// export streams every event of the filter as CSV, in the filter's order. The export is
// audited first, with the filter, so even an interrupted one is on record.
func (h *Handler) export(w http.ResponseWriter, r *http.Request) {
	q, err := ParseQuery(r.URL.Query().Get, false)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	e := auth.AuditEvent(r)
	e.Action, e.EntityType, e.Outcome, e.Detail = "audit.export", "audit_log", audit.Success, r.URL.RawQuery
	if err := audit.Access(r.Context(), h.DB, e); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	rows, err := audit.Export(r.Context(), h.DB, q)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	defer rows.Close()
	lang := i18n.FromRequest(r)
	name := "audit-events-" + time.Now().UTC().Format("20060102-150405") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Cache-Control", "no-store")
	out := httpjson.NewCSV(w)
	out.Write(csvHeader...)
	// Events are read in batches, each batch's patient numbers in one read.
	batch := make([]audit.Stored, 0, exportBatch)
	write := func() bool {
		events, err := h.withNumbers(r.Context(), batch)
		if err != nil {
			return false // the status is sent; a truncated file is the only signal left
		}
		for _, e := range events {
			out.Write(append(csvRow(e), audit.DetailIn(lang, e.Detail))...)
		}
		_ = out.Flush()
		batch = batch[:0]
		return true
	}
	for rows.Next() {
		e, err := rows.Event()
		if err != nil {
			return
		}
		if batch = append(batch, e); len(batch) == exportBatch && !write() {
			return
		}
	}
	if rows.Err() != nil {
		return
	}
	write()
}

// exportBatch is how many events the export reads before naming their patients.
const exportBatch = 1000

// csvRow is one event as the export writes it.
func csvRow(e Event) []string {
	seq := ""
	if e.Seq != nil {
		seq = strconv.FormatInt(*e.Seq, 10)
	}
	patient := ""
	if e.PatientID != 0 {
		patient = strconv.FormatInt(e.PatientID, 10)
	}
	return []string{seq, e.At.Format(time.RFC3339Nano), e.ActorName, e.Action, e.EntityType, e.EntityID, patient,
		e.PatientMRN, e.Outcome, e.Address, strconv.FormatBool(e.Emergency), e.Detail, e.Hash, e.Credential}
}

// withNumbers adds their patients' numbers to events (one read of the patient store).
func (h *Handler) withNumbers(ctx context.Context, events []audit.Stored) ([]Event, error) {
	var ids []int64
	for _, e := range events {
		if e.PatientID != 0 {
			ids = append(ids, e.PatientID)
		}
	}
	patients, err := patient.Summaries(ctx, h.DB, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Event, len(events))
	for i, e := range events {
		out[i] = Event{Stored: e, PatientMRN: patients[e.PatientID].MRN}
	}
	return out, nil
}
