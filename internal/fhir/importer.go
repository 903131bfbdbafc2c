package fhir

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/httpjson"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// MaxImportLines is how many patients one import may hold.
const MaxImportLines = 10_000

// ImportLine is what an import did, or would do, with one patient of the file.
type ImportLine struct {
	Line   int    `json:"line"`   // the line of the file (CSV, NDJSON) or the entry (a Bundle's, from 1)
	Name   string `json:"name"`   // the patient as the file names them
	Status string `json:"status"` // created, would_create, duplicate, invalid
	// Messages say why a line was refused or skipped, in the caller's language.
	Messages []string `json:"messages"`
	// MRN is the number given (created), or the existing patient's (duplicate).
	MRN string `json:"mrn"`
}

// ImportReport is an import's answer: every line, and the counts.
type ImportReport struct {
	DryRun     bool         `json:"dry_run"`
	Format     string       `json:"format"`
	Created    int          `json:"created"`
	Duplicates int          `json:"duplicates"`
	Invalid    int          `json:"invalid"`
	Lines      []ImportLine `json:"lines"`
}

// importItem is one patient read from the file, with the allergies that name them.
type importItem struct {
	line      int
	input     patient.Input
	err       error
	previous  []string // identifiers of the system the register comes from
	allergies []patient.Allergy
	nka       bool
}

// ImportRoutes is the register import's route: the same path for FHIR and CSV files.
func (h *Handler) ImportRoutes() []auth.Route {
	return []auth.Route{{Method: "POST", Path: "/api/patients/import", Access: auth.Need(auth.ManagePatient), Announces: auth.ChangesPatients, Handler: h.withClinic(h.importPatients)}}
}

// importPatients loads a clinic's existing register: a FHIR Bundle (batch or transaction),
// NDJSON of Patients and AllergyIntolerances, or a CSV file, mapped to the same path. Every
// patient goes through the register's own validation and duplicate check; ?dry_run=1 checks
// the file and writes nothing. The answer reports each line.
func (h *Handler) importPatients(w http.ResponseWriter, r *http.Request) {
	data, name, err := httpjson.File(w, r, h.MaxImport)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	dry := r.URL.Query().Get("dry_run") == "1" || r.URL.Query().Get("dry_run") == "true"
	items, format, err := readImport(name, data)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	lang := i18n.FromRequest(r)
	rep := ImportReport{DryRun: dry, Format: format, Lines: make([]ImportLine, len(items))}
	e := auth.AuditEvent(r)
	seen := map[string]int{} // within the file: name key and birth date → line
	var pending []int
	for i, it := range items {
		line := ImportLine{Line: it.line, Name: strings.Join(strings.Fields(it.input.FirstName+" "+it.input.MiddleName+" "+it.input.LastName), " "), Messages: []string{}}
		rep.Lines[i] = line
		if it.err != nil {
			rep.Lines[i].Status, rep.Lines[i].Messages = "invalid", messages(lang, it.err)
			continue
		}
		in := it.input
		if err := in.Clean(h.Patients.Today()); err != nil {
			rep.Lines[i].Status, rep.Lines[i].Messages = "invalid", messages(lang, err)
			continue
		}
		items[i].input = in
		key := patient.NameKey(in.FirstName, in.MiddleName, in.LastName) + "|" + in.BirthDate + "|" + in.Sex
		if first, ok := seen[key]; ok {
			rep.Lines[i].Status, rep.Lines[i].Messages = "duplicate", []string{i18n.T(lang, "import.duplicate_in_file", first)}
			continue
		}
		seen[key] = it.line
		twins, err := h.Patients.Duplicates(r.Context(), in, 0)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		if len(twins) > 0 {
			rep.Lines[i].Status, rep.Lines[i].MRN = "duplicate", twins[0].MRN
			rep.Lines[i].Messages = []string{i18n.T(lang, "import.duplicate_of", twins[0].MRN, twins[0].NameIn(lang))}
			continue
		}
		rep.Lines[i].Status = "would_create"
		pending = append(pending, i)
	}
	if !dry && len(pending) > 0 {
		// One transaction, one commit; a patient the register refuses now (another
		// registration raced this one) is rolled back alone and reported.
		failures, err := h.Patients.Batch(r.Context(), false, len(pending), func(k int, tx *sql.Tx) error {
			i := pending[k]
			p, err := h.Patients.CreateIn(r.Context(), tx, e, items[i].input, nil)
			if err == nil {
				rep.Lines[i].MRN = p.MRN
			}
			return err
		})
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		for k, i := range pending {
			if failures[k] != nil {
				rep.Lines[i].Status, rep.Lines[i].MRN, rep.Lines[i].Messages = "invalid", "", messages(lang, failures[k])
			} else {
				rep.Lines[i].Status = "created"
			}
		}
	}
	for _, l := range rep.Lines {
		switch l.Status {
		case "created", "would_create":
			rep.Created++
		case "duplicate":
			rep.Duplicates++
		case "invalid":
			rep.Invalid++
		}
	}
	if dry {
		ev := e
		ev.Action, ev.EntityType, ev.Outcome = "patient.import.check", "patient", audit.Success
		ev.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.import_checked", Args: []string{name, strconv.Itoa(rep.Created), strconv.Itoa(rep.Duplicates), strconv.Itoa(rep.Invalid)}})
		if err := audit.Access(r.Context(), h.DB, ev); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	httpjson.Respond(w, http.StatusOK, rep)
}

// messages are an error's messages in lang, one per field problem.
func messages(lang string, err error) []string {
	_, oo := Outcome(lang, asFHIR(err))
	out := make([]string, 0, len(oo.Issue))
	for _, is := range oo.Issue {
		msg := is.Diagnostics
		if len(is.Expression) > 0 && is.Expression[0] != "Patient" {
			msg = is.Expression[0] + ": " + msg
		}
		out = append(out, msg)
	}
	return out
}

// readImport reads a file's patients: a FHIR Bundle (.json), NDJSON (.ndjson) or CSV (.csv).
func readImport(name string, data []byte) ([]importItem, string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, "", apperr.Invalid("import.not_utf8")
	}
	var items []importItem
	var format string
	var err error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		format = "csv"
		items, err = readCSV(data)
	case ".ndjson", ".jsonl":
		format = "ndjson"
		items, err = readResources(ndjsonLines(data))
	case ".json":
		format = "bundle"
		var b bundleIn
		if err := json.Unmarshal(data, &b); err != nil || b.ResourceType != "Bundle" {
			return nil, "", apperr.Invalid("import.bad_bundle")
		}
		var lines []rawLine
		for i, e := range b.Entry {
			lines = append(lines, rawLine{n: i + 1, data: e.Resource, fullURL: e.FullURL})
		}
		items, err = readResources(lines)
	default:
		return nil, "", apperr.Invalid("import.format")
	}
	if err != nil {
		return nil, "", err
	}
	if len(items) == 0 {
		return nil, "", apperr.Invalid("import.empty")
	}
	if len(items) > MaxImportLines {
		return nil, "", apperr.Invalid("import.too_many", MaxImportLines)
	}
	return items, format, nil
}

type rawLine struct {
	n       int
	data    json.RawMessage
	fullURL string
}

func ndjsonLines(data []byte) []rawLine {
	var out []rawLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxResource)
	n := 0
	for sc.Scan() {
		n++
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			out = append(out, rawLine{n: n, data: append(json.RawMessage(nil), line...)})
		}
	}
	return out
}

// readResources reads Patients and the AllergyIntolerances that name them (by the
// patient's fullUrl or Patient/<id> in the file), in any order.
func readResources(lines []rawLine) ([]importItem, error) {
	var items []importItem
	byRef := map[string]int{}
	var allergies []rawLine
	for _, l := range lines {
		var head struct {
			ResourceType string `json:"resourceType"`
			ID           string `json:"id"`
		}
		if err := json.Unmarshal(l.data, &head); err != nil {
			items = append(items, importItem{line: l.n, err: apperr.Invalid("fhir.bad_json")})
			continue
		}
		switch head.ResourceType {
		case "Patient":
			it := importItem{line: l.n}
			var p patientIn
			if err := decodeStrict(l.data, &p); err != nil {
				it.err = err
			} else if len(p.Extension) > 0 {
				// Read strictly, as the Patient's other elements it does not take.
				it.err = &Error{Status: http.StatusBadRequest, Code: "not-supported", Key: "fhir.unsupported_element", Args: []any{"extension"}, Expression: "extension"}
			} else {
				// The number a patient had in the system the register comes from is kept in
				// the remarks, since the register numbers its patients itself.
				p.ID, p.Meta = "", nil
				for _, ident := range p.Identifier {
					it.previous = append(it.previous, strings.TrimSpace(ident.System+" "+ident.Value))
				}
				p.Identifier = nil
				var dropped notes // an import reads strictly (decodeStrict): only a birth date's other extension is left
				if p.Active != nil && !*p.Active {
					it.err = invalid("fhir.active_on_create", "Patient.active")
				} else if it.input, it.err = toInput(p.Patient, patient.Input{}, &dropped); it.err == nil && len(it.previous) > 0 {
					it.input.Remarks = "Previous record number: " + strings.Join(it.previous, "; ")
				}
			}
			if head.ID != "" {
				byRef["Patient/"+head.ID] = len(items)
			}
			if l.fullURL != "" {
				byRef[l.fullURL] = len(items)
			}
			items = append(items, it)
		case "AllergyIntolerance":
			allergies = append(allergies, l)
		default:
			items = append(items, importItem{line: l.n, err: invalid("import.resource_type", "resourceType", head.ResourceType)})
		}
	}
	for _, l := range allergies {
		var a AllergyIntolerance
		if err := json.Unmarshal(l.data, &a); err != nil || a.Patient == nil {
			items = append(items, importItem{line: l.n, err: invalid("import.allergy_patient", "AllergyIntolerance.patient")})
			continue
		}
		i, ok := byRef[a.Patient.Reference]
		if !ok {
			items = append(items, importItem{line: l.n, err: invalid("import.allergy_patient", "AllergyIntolerance.patient")})
			continue
		}
		switch {
		case hasVerification(a, "refuted", "entered-in-error"):
			// A refuted allergy says the patient is not allergic to it, one entered in error
			// says nothing: neither is an allergy to list, nor "no known allergies".
		case a.Code != nil && slicesHasCode(a.Code.Coding, "716186003"):
			items[i].nka = true
		case a.Code != nil && slices.ContainsFunc(partialNegations, func(code string) bool { return slicesHasCode(a.Code.Coding, code) }):
			// "No known drug (food, …) allergy" is no allergy to list, and not "no known
			// allergies" either: the patient's allergies stay as they were (unknown, say).
		default:
			al := patient.Allergy{}
			if a.Code != nil {
				al.Substance = a.Code.Text
				if al.Substance == "" && len(a.Code.Coding) > 0 {
					al.Substance = a.Code.Coding[0].Display
				}
			}
			if len(a.Reaction) > 0 {
				al.Severity = a.Reaction[0].Severity
				if len(a.Reaction[0].Manifestation) > 0 {
					al.Reaction = a.Reaction[0].Manifestation[0].Text
				}
			}
			items[i].allergies = append(items[i].allergies, al)
		}
	}
	for i := range items {
		setAllergies(&items[i])
	}
	return items, nil
}

// hasVerification reports whether a's verificationStatus is one of codes.
func hasVerification(a AllergyIntolerance, codes ...string) bool {
	if a.VerificationStatus == nil {
		return false
	}
	for _, c := range codes {
		if slicesHasCode(a.VerificationStatus.Coding, c) {
			return true
		}
	}
	return false
}

// partialNegations are SNOMED CT's "no known allergy" situations of one kind of substance:
// drug (409137002), food (429625007), environmental (428607008), latex (716184000).
var partialNegations = []string{"409137002", "429625007", "428607008", "716184000"}

func slicesHasCode(codings []Coding, code string) bool {
	for _, c := range codings {
		if c.Code == code {
			return true
		}
	}
	return false
}

// setAllergies writes what the file says of a patient's allergies into their history:
// listed ones, or "no known allergies" recorded; nothing said leaves them not asked.
func setAllergies(it *importItem) {
	switch {
	case len(it.allergies) > 0:
		it.input.History.Allergies, it.input.History.AllergyStatus = it.allergies, patient.AllergiesListed
	case it.nka:
		it.input.History.AllergyStatus = patient.AllergiesNone
	}
}

// csvColumns are the columns a CSV register may have (a header names them, in any order).
var csvColumns = []string{"first_name", "middle_name", "last_name", "sex", "birth_date", "phone", "email", "address", "allergies", "previous_number"}

// readCSV reads a register kept in a spreadsheet: a header row naming csvColumns, then a
// patient per row. allergies lists substances separated by ";", or "none" for no known
// allergies.
func readCSV(data []byte) ([]importItem, error) {
	rd := csv.NewReader(bytes.NewReader(data))
	rd.FieldsPerRecord = -1
	rd.TrimLeadingSpace = true
	header, err := rd.Read()
	if err != nil {
		return nil, apperr.Invalid("import.csv_header", strings.Join(csvColumns, ","))
	}
	col := map[string]int{}
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if !containsString(csvColumns, name) {
			return nil, apperr.Invalid("import.csv_column", h, strings.Join(csvColumns, ","))
		}
		col[name] = i
	}
	for _, required := range []string{"first_name", "last_name", "birth_date"} {
		if _, ok := col[required]; !ok {
			return nil, apperr.Invalid("import.csv_header", strings.Join(csvColumns, ","))
		}
	}
	var items []importItem
	line := 1
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line++
		if err != nil {
			items = append(items, importItem{line: line, err: apperr.Invalid("import.csv_row")})
			continue
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		it := importItem{line: line, input: patient.Input{FirstName: get("first_name"), MiddleName: get("middle_name"), LastName: get("last_name"),
			Sex: strings.ToLower(get("sex")), BirthDate: get("birth_date"), Phone: get("phone"), Email: get("email"), Address: get("address")}}
		if it.input.Sex == "" {
			it.input.Sex = "unknown"
		}
		if prev := get("previous_number"); prev != "" {
			it.input.Remarks = "Previous record number: " + prev
		}
		switch a := get("allergies"); strings.ToLower(a) {
		case "":
		case "none", "nka":
			it.nka = true
		default:
			for _, s := range strings.Split(a, ";") {
				if s = strings.TrimSpace(s); s != "" {
					it.allergies = append(it.allergies, patient.Allergy{Substance: s})
				}
			}
		}
		setAllergies(&it)
		items = append(items, it)
	}
	return items, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
