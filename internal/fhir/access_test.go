package fhir_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
	"emr/internal/user"
)

// reader is one caller of the authorization table: an API token of an account with a role
// (its permissions read from the roles' screen, the administrator holding all), or a backend
// client with its system/ scopes and no permissions.
type reader struct {
	name   string
	api    *apitest.Client
	perms  []string // nil: the administrator, every permission
	scopes []string // a backend client's resource types
}

// may says what the table allows the caller: the rule's permission (any one), or, for a
// backend client, a scope on the rule's type.
func (c reader) may(rule fhir.ReadRule) bool {
	if c.scopes != nil {
		return slices.Contains(c.scopes, rule.Type)
	}
	if c.perms == nil || len(rule.Perms) == 0 {
		return true
	}
	for _, p := range rule.Perms {
		if slices.Contains(c.perms, string(p)) {
			return true
		}
	}
	return false
}

// mayAny says whether the caller reads any of kind.
func (c reader) mayAny(kind string) bool {
	for _, rule := range fhir.ReadAccess {
		if rule.Type == kind && c.may(rule) {
			return true
		}
	}
	return false
}

func key(kind, category string) string {
	if category == "" {
		return kind
	}
	return kind + ":" + category
}

// keyOf is the table's key of a resource as answered: its type, and an Observation's category.
func keyOf(res map[string]any) string {
	kind := res["resourceType"].(string)
	if kind == "Observation" {
		cat := res["category"].([]any)[0].(map[string]any)["coding"].([]any)[0].(map[string]any)["code"].(string)
		return key(kind, cat)
	}
	return kind
}

// byKey counts a Bundle's matches by the table's key, and returns the text of its outcome
// entries.
func byKey(b map[string]any) (map[string]int, string) {
	counts := map[string]int{}
	var outcomes []string
	list, _ := b["entry"].([]any)
	for _, e := range list {
		res := e.(map[string]any)["resource"].(map[string]any)
		if res["resourceType"] == "OperationOutcome" {
			js, _ := json.Marshal(res)
			outcomes = append(outcomes, string(js))
			continue
		}
		counts[keyOf(res)]++
	}
	return counts, strings.Join(outcomes, " ")
}

// role makes a role holding perms.
func (c *clinic) role(t *testing.T, name string, perms ...string) {
	t.Helper()
	if r := c.admin.Do("POST", "/api/roles", map[string]any{"name": name}); r.Status != http.StatusCreated {
		t.Fatalf("role %s: %d %s", name, r.Status, r.Body)
	}
	c.setRole(t, name, perms...)
}

// setRole gives role name exactly perms.
func (c *clinic) setRole(t *testing.T, name string, perms ...string) {
	t.Helper()
	var roles struct{ Version int }
	c.admin.Do("GET", "/api/roles", nil).JSON(t, &roles)
	if r := c.admin.Do("PUT", "/api/roles/matrix", map[string]any{"matrix": map[string][]string{name: perms}, "version": roles.Version}); r.Status != http.StatusOK {
		t.Fatalf("matrix %s: %d %s", name, r.Status, r.Body)
	}
}

// permissionsOf reads each role's permissions as the roles' screen shows them.
func (c *clinic) permissionsOf(t *testing.T) map[string][]string {
	var roles struct {
		Data []struct {
			Name        string
			Permissions []string
		}
	}
	c.admin.Do("GET", "/api/roles", nil).JSON(t, &roles)
	out := map[string][]string{}
	for _, r := range roles.Data {
		out[r.Name] = r.Permissions
	}
	return out
}

// backend registers a backend client with scopes and answers a client calling with its
// access token.
func (c *clinic) backend(t *testing.T, scopes string) *apitest.Client {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "ec-1", Algorithm: "ES384", Use: "sig"}}})
	var reg struct {
		ClientID string `json:"client_id"`
	}
	r := c.admin.Do("POST", "/api/api-clients", map[string]any{"name": "Registry " + scopes, "scopes": scopes, "jwks": string(jwks)})
	if r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &reg)
	// The token endpoint checks an assertion's aud against the clinic's public address: the
	// test server's own here.
	var clinic struct{ Version int }
	c.admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &clinic)
	if r := c.admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Clinic", "public_url": c.env.HTTP.URL, "version": clinic.Version}); r.Status != http.StatusOK {
		t.Fatalf("public address: %d %s", r.Status, r.Body)
	}
	var disc map[string]any
	c.env.Client().Do("GET", "/fhir/R4/.well-known/smart-configuration", nil).JSON(t, &disc)
	bc := backendClient{id: reg.ClientID, key: key, alg: jose.ES384, kid: "ec-1"}
	status, out := tokenRequest(t, c.env, bc.assertion(t, disc["token_endpoint"].(string), 4*time.Minute, auth.NewToken()), "")
	if status != http.StatusOK {
		t.Fatalf("client token: %d %v", status, out)
	}
	api := c.env.Client()
	api.Header.Set("Authorization", "Bearer "+out["access_token"].(string))
	return api
}

// readers are the table's callers: the administrator, a doctor, a triage nurse who records
// vital signs only, a receptionist, a laboratory role that records results and nothing
// else, and a backend client with scopes on patients, observations and orders.
func (c *clinic) readers(t *testing.T) []reader {
	t.Helper()
	c.role(t, "triage", "view patient", "view appointment", "record vitals")
	c.role(t, "laboratory", "record results")
	c.env.CreateUser("tri", "triage")
	c.env.CreateUser("lab", "laboratory")
	perms := c.permissionsOf(t)
	var out []reader
	for _, u := range []struct{ username, role string }{{"admin", "admin"}, {"doc", "doctor"}, {"tri", "triage"}, {"clerk", "receptionist"}, {"lab", "laboratory"}} {
		api, _ := c.token(t, u.username, "")
		rd := reader{name: u.role, api: api, perms: perms[u.role]}
		if u.role == "admin" {
			rd.perms = nil
		}
		out = append(out, rd)
	}
	return append(out, reader{name: "system client", api: c.backend(t, "system/Patient.rs system/Observation.rs system/ServiceRequest.rs"),
		scopes: []string{"Patient", "Observation", "ServiceRequest"}})
}

// samples are one resource of each of the table's keys, as the administrator reads them.
func (c *clinic) samples(t *testing.T, admin *apitest.Client) map[string]string {
	t.Helper()
	doc := fmt.Sprint(c.env.UserID("doc"))
	out := map[string]string{"Practitioner": doc, "PractitionerRole": doc, "Organization": "clinic", "Location": "clinic", "Group": "doctor-" + doc}
	ev := get(t, admin, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", c.patientID), http.StatusOK)
	for _, res := range entries(ev) {
		if k := keyOf(res); out[k] == "" {
			out[k] = res["id"].(string)
		}
	}
	for _, rule := range fhir.ReadAccess {
		if out[key(rule.Type, rule.Category)] == "" && !forecastOptional(rule.Type) {
			t.Fatalf("no sample of %s", key(rule.Type, rule.Category))
		}
	}
	return out
}

// TestTheAccessTableIsTheNativeOnes: each rule of the table names the native route that
// reads the same records, and asks the permissions that route asks; each type's FHIR routes
// ask any permission of its rules.
func TestTheAccessTableIsTheNativeOnes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		access := map[string]string{}
		for _, rt := range env.Server.Routes {
			access[rt.Method+" "+rt.Path] = rt.Access.String()
		}
		set := func(s string) []string {
			parts := strings.Split(s, " or ")
			sort.Strings(parts)
			return parts
		}
		union := map[string][]string{}
		for _, rule := range fhir.ReadAccess {
			want := "logged-in"
			if len(rule.Perms) > 0 {
				want = strings.Join(func() []string {
					var s []string
					for _, p := range rule.Perms {
						s = append(s, string(p))
					}
					return s
				}(), " or ")
			}
			for _, p := range set(want) {
				if !slices.Contains(union[rule.Type], p) {
					union[rule.Type] = append(union[rule.Type], p)
				}
			}
			if rule.Native == "" {
				continue
			}
			got, ok := access[rule.Native]
			if !ok {
				t.Errorf("%s: no native route %s", key(rule.Type, rule.Category), rule.Native)
			} else if !slices.Equal(set(got), set(want)) {
				t.Errorf("%s asks %q, the native %s asks %q", key(rule.Type, rule.Category), want, rule.Native, got)
			}
		}
		for kind, perms := range union {
			sort.Strings(perms)
			paths := []string{"/fhir/R4/" + kind, "/fhir/R4/" + kind + "/{id}", "/fhir/R4/" + kind + "/{id}/_history", "/fhir/R4/" + kind + "/_history"}
			if kind == "Group" {
				paths = paths[1:2] // read alone: no search, no versions
			}
			if kind == "ImmunizationRecommendation" {
				paths = paths[:2] // worked out when read: no versions
			}
			for _, path := range paths {
				if got := access["GET "+path]; !slices.Equal(set(got), perms) {
					t.Errorf("GET %s asks %q, its rules %v", path, got, perms)
				}
			}
		}
	})
}

// TestReadsFollowTheAccessTable: every caller × every row of the table, through the real
// server: a read and the instance's history answer 200 when the table allows it and 403
// when not; a search answers what is allowed of its type (an outcome entry naming what was
// left out) or 403 when nothing of the type is; Patient/$everything holds exactly the
// allowed rows of the record.
func TestReadsFollowTheAccessTable(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		readers := c.readers(t)
		samples := c.samples(t, readers[0].api)
		pid := c.patientID
		doc := c.env.UserID("doc")
		searchOf := map[string]string{"Patient": fmt.Sprintf("_id=%d", pid), "Practitioner": fmt.Sprintf("_id=%d", doc), "PractitionerRole": fmt.Sprintf("practitioner=%d", doc),
			"Organization": "", "Location": ""}
		// The clinic's own resources, and the Group, are not of a patient's record.
		clinicWide := []string{"Practitioner", "PractitionerRole", "Organization", "Location", "Group"}
		for _, rd := range readers {
			t.Run(rd.name, func(t *testing.T) {
				// Patient/$everything: the table's allowed rows, the others named.
				var everything map[string]int
				var everythingOutcome string
				if rd.may(fhir.ReadAccess[0]) {
					everything, everythingOutcome = byKey(get(t, rd.api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", pid), http.StatusOK))
				} else {
					get(t, rd.api, fmt.Sprintf("/fhir/R4/Patient/%d/$everything", pid), http.StatusForbidden)
				}
				for _, rule := range fhir.ReadAccess {
					k := key(rule.Type, rule.Category)
					allowed := rd.may(rule)
					want := http.StatusForbidden
					if allowed {
						want = http.StatusOK
					}
					id := samples[k]
					if id == "" { // the adult's forecast, when the shipped schedules say nothing of them
						continue
					}
					get(t, rd.api, "/fhir/R4/"+rule.Type+"/"+id, want)
					if rule.Type == "Group" {
						continue // read alone
					}
					if rule.Type != "ImmunizationRecommendation" { // worked out when read: no versions
						get(t, rd.api, "/fhir/R4/"+rule.Type+"/"+id+"/_history", want)
					}

					// A search of the type: 403 when nothing of it is allowed, else the allowed rows.
					q, ok := searchOf[rule.Type]
					if !ok {
						q = fmt.Sprintf("patient=%d", pid)
					}
					if !rd.mayAny(rule.Type) {
						get(t, rd.api, "/fhir/R4/"+rule.Type+"?"+q, http.StatusForbidden)
					} else {
						counts, outcome := byKey(get(t, rd.api, "/fhir/R4/"+rule.Type+"?"+q+"&_count=100", http.StatusOK))
						if allowed && counts[k] == 0 {
							t.Errorf("%s search: no %s", rule.Type, k)
						}
						if !allowed && (counts[k] != 0 || !strings.Contains(outcome, rule.Category)) {
							t.Errorf("%s search: %d of %s, outcome %s", rule.Type, counts[k], k, outcome)
						}
						if rule.Category != "" && !allowed {
							// Asking for that category alone is refused outright.
							get(t, rd.api, "/fhir/R4/"+rule.Type+"?"+q+"&category="+rule.Category, http.StatusForbidden)
						}
					}
					if everything != nil && !slices.Contains(clinicWide, rule.Type) {
						if allowed != (everything[k] > 0) {
							t.Errorf("$everything: %d of %s, allowed %v", everything[k], k, allowed)
						}
						if !allowed && !strings.Contains(everythingOutcome, rule.Type) {
							t.Errorf("$everything does not name %s: %s", k, everythingOutcome)
						}
					}
				}
			})
		}
	})
}

// exportCounts downloads every output of an export's manifest and counts its lines by the
// table's key (each line of its file's type); it returns the text of its error files too.
func exportCounts(t *testing.T, api *apitest.Client, m map[string]any) (map[string]int, string) {
	t.Helper()
	counts := map[string]int{}
	for _, o := range m["output"].([]any) {
		o := o.(map[string]any)
		for _, line := range ndjson(t, api, o["url"].(string)) {
			if line["resourceType"] != o["type"] {
				t.Errorf("a %v in the %v file", line["resourceType"], o["type"])
			}
			counts[keyOf(line)]++
		}
	}
	var errs []string
	for _, o := range m["error"].([]any) {
		for _, line := range ndjson(t, api, o.(map[string]any)["url"].(string)) {
			js, _ := json.Marshal(line)
			errs = append(errs, string(js))
		}
	}
	return counts, strings.Join(errs, " ")
}

// TestExportFollowsTheAccessTable: a whole-clinic export (system, Patient or Group level)
// needs the export permission, held by the administrator alone by default; what is exported
// is the table's allowed rows for the caller, exactly the administrator's lines of those,
// with what was left out named in the manifest's error file; naming a type one may not read
// in _type is refused.
func TestExportFollowsTheAccessTable(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.wholeRecord(t)
		c.role(t, "archivist", "export records", "view patient", "record vitals")
		c.env.CreateUser("arch", "archivist")
		perms := c.permissionsOf(t)
		if !slices.Contains(perms["admin"], "export records") || slices.Contains(perms["doctor"], "export records") {
			t.Errorf("export records by default: %v", perms)
		}
		admin, _ := c.token(t, "admin", "")
		doc, _ := c.token(t, "doc", "")
		arch, _ := c.token(t, "arch", "")
		doc.Header.Set("Prefer", "respond-async")
		for _, path := range []string{"/fhir/R4/$export", "/fhir/R4/Patient/$export", fmt.Sprintf("/fhir/R4/Group/doctor-%d/$export", c.env.UserID("doc"))} {
			get(t, doc, path, http.StatusForbidden)
		}
		doc.Header.Del("Prefer")

		whole, _ := exportCounts(t, admin, exportTo(t, admin, "/fhir/R4/$export"))
		for _, rule := range fhir.ReadAccess {
			if k := key(rule.Type, rule.Category); slices.Contains(fhir.ExportTypes, rule.Type) && whole[k] == 0 && !forecastOptional(rule.Type) {
				t.Errorf("the administrator's export has no %s: %v", k, whole)
			}
		}
		for _, rd := range []reader{
			{name: "archivist", api: arch, perms: perms["archivist"]},
			{name: "system client", api: c.backend(t, "system/Patient.rs system/Observation.rs"), scopes: []string{"Patient", "Observation"}},
		} {
			t.Run(rd.name, func(t *testing.T) {
				for _, path := range []string{"/fhir/R4/$export", "/fhir/R4/Patient/$export"} {
					counts, errs := exportCounts(t, rd.api, exportTo(t, rd.api, path))
					for _, rule := range fhir.ReadAccess {
						k := key(rule.Type, rule.Category)
						if !slices.Contains(fhir.ExportTypes, rule.Type) {
							continue
						}
						switch {
						case rd.may(rule) && counts[k] != whole[k]:
							t.Errorf("%s: %d of %s, the whole clinic has %d", path, counts[k], k, whole[k])
						case !rd.may(rule) && counts[k] != 0:
							t.Errorf("%s: %d of %s, which it may not read", path, counts[k], k)
						case !rd.may(rule) && !strings.Contains(errs, rule.Type) || (rule.Category != "" && !rd.may(rule) && !strings.Contains(errs, rule.Category)):
							t.Errorf("%s: %s left out unnamed: %s", path, k, errs)
						}
					}
				}
				rd.api.Header.Set("Prefer", "respond-async")
				get(t, rd.api, "/fhir/R4/$export?_type=Encounter", http.StatusForbidden)
				rd.api.Header.Del("Prefer")
			})
		}
	})
}

// fileOf is the URL of a manifest's file of kind.
func fileOf(t *testing.T, m map[string]any, kind string) string {
	t.Helper()
	for _, o := range m["output"].([]any) {
		if o := o.(map[string]any); o["type"] == kind {
			return relative(t, o["url"].(string))
		}
	}
	t.Fatalf("no %s file in %v", kind, m)
	return ""
}

// TestExportFilesAreTheirCredentialsAndExpire: an export's status and files answer the
// credential that started it alone (another token of the same account, whose scopes lack
// Encounter, is not shown its Encounter file); each download reads the caller's permission
// again (a role that lost it is refused the file); a day after it finished its files are
// deleted — at the read that finds them expired, and by the periodic sweep without one — and
// served 404.
func TestExportFilesAreTheirCredentialsAndExpire(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.role(t, "archivist", "export records", "view patient", "view appointment")
		c.env.CreateUser("arch", "archivist")
		admin, _ := c.token(t, "admin", "")
		narrow, _ := c.token(t, "admin", "user/Patient.rs")
		arch, _ := c.token(t, "arch", "")
		chunks := func(status string) int {
			job := status[strings.LastIndex(status, "/")+1:]
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM bulk_export_chunks WHERE export_id = (SELECT id FROM bulk_exports WHERE job = $1)`, job)
		}

		m := exportTo(t, admin, "/fhir/R4/$export?_type=Patient,Encounter")
		encounters := fileOf(t, m, "Encounter")
		for _, path := range []string{encounters, fileOf(t, m, "Patient"), m["status"].(string)} {
			if r := narrow.Do("GET", path, nil); r.Status != http.StatusNotFound {
				t.Errorf("another token of the same account: %s %d", path, r.Status)
			}
		}
		narrow.Header.Set("Prefer", "respond-async")
		get(t, narrow, "/fhir/R4/$export?_type=Encounter", http.StatusForbidden)
		narrow.Header.Del("Prefer")
		ndjson(t, admin, encounters)

		mine := exportTo(t, arch, "/fhir/R4/$export?_type=Patient,Encounter")
		c.setRole(t, "archivist", "export records", "view patient")
		if r := arch.Do("GET", fileOf(t, mine, "Encounter"), nil); r.Status != http.StatusForbidden {
			t.Errorf("a file of a type its reader may no longer read: %d", r.Status)
		}
		ndjson(t, arch, fileOf(t, mine, "Patient"))
		// The export permission taken away: the job started with it answers no more.
		c.setRole(t, "archivist", "view patient")
		for _, path := range []string{fileOf(t, mine, "Patient"), mine["status"].(string)} {
			if r := arch.Do("GET", path, nil); r.Status != http.StatusForbidden {
				t.Errorf("%s without the export permission: %d", path, r.Status)
			}
		}
		c.setRole(t, "archivist", "export records", "view patient")

		// A day and a minute later: the read finds the file expired, deletes it, answers 404.
		if chunks(m["status"].(string)) == 0 || chunks(mine["status"].(string)) == 0 {
			t.Fatal("no files to expire")
		}
		fhir.SetExportClock(t, 24*time.Hour+time.Minute)
		if r := admin.Do("GET", encounters, nil); r.Status != http.StatusNotFound {
			t.Errorf("an expired file: %d", r.Status)
		}
		get(t, admin, m["status"].(string), http.StatusNotFound)
		if n := chunks(m["status"].(string)); n != 0 {
			t.Errorf("an expired export keeps %d chunks", n)
		}
		// The sweep deletes the other's, which nobody asked for.
		if n := chunks(mine["status"].(string)); n == 0 {
			t.Fatal("the read deleted another export's files")
		}
		if err := fhir.SweepExports(t.Context(), db); err != nil {
			t.Fatal(err)
		}
		if n := chunks(mine["status"].(string)); n != 0 {
			t.Errorf("swept: %d chunks left", n)
		}
		if r := arch.Do("GET", fileOf(t, mine, "Patient"), nil); r.Status != http.StatusNotFound {
			t.Errorf("a swept file: %d", r.Status)
		}
	})
}

// TestConditionalCreateReadsNothingItMayNotRead: a conditional create that matches answers
// the patient to a caller who may read patients (permission and scope), and to anyone else
// only that it exists (where, in Location; an OperationOutcome, or nothing under
// return=minimal); each match answered is audited as a read of that patient; in a batch too.
func TestConditionalCreateReadsNothingItMayNotRead(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.role(t, "registrar", "manage patient")
		c.env.CreateUser("reg", "registrar")
		clerk, _ := c.token(t, "clerk", "")
		p, _ := send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource("Matched"), nil, http.StatusCreated)
		id := p["id"].(string)
		phone := p["telecom"].([]any)[0].(map[string]any)["value"].(string)
		number := p["identifier"].([]any)[0].(map[string]any)["value"].(string)
		search := map[string]string{"If-None-Exist": "family=matched&birthdate=1992-05-17"}
		byNumber := map[string]string{"If-None-Exist": "identifier=" + number}
		patients := func() int { return dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`) }
		reads := func() int {
			return dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.read' AND entity_id = $1`, id)
		}
		for _, tc := range []struct {
			name   string
			user   string
			scopes string
			sees   bool
		}{
			{"a receptionist", "clerk", "", true},
			{"a token that reads patients", "clerk", "user/Patient.cr", true},
			{"a registrar who may not view patients", "reg", "", false},
			{"a token that only creates", "clerk", "user/Patient.c", false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				api, _ := c.token(t, tc.user, tc.scopes)
				condition := search
				if !tc.sees {
					// Any condition but the patient's number would search the register: refused,
					// nothing created, whatever it would have matched.
					registered := patients()
					for _, probe := range []string{search["If-None-Exist"], "name=M", "gender=female", "_id=" + id + "&birthdate=1992-05-17", "identifier=" + number + "&birthdate=1992-05-17"} {
						_, r := send(t, api, "POST", "/fhir/R4/Patient", newPatientResource("Probe"), map[string]string{"If-None-Exist": probe}, http.StatusForbidden)
						if !strings.Contains(string(r.Body), "identifier") {
							t.Errorf("%s: the refusal does not say what is allowed: %s", probe, r.Body)
						}
					}
					if n := patients(); n != registered {
						t.Errorf("a refused conditional create registered %d patients", n-registered)
					}
					condition = byNumber
				}
				before := reads()
				body, r := send(t, api, "POST", "/fhir/R4/Patient", newPatientResource("Matched"), condition, http.StatusOK)
				if !strings.Contains(r.Header.Get("Location"), "/Patient/"+id+"/_history/") || r.Header.Get("ETag") == "" {
					t.Errorf("where it is: %v", r.Header)
				}
				js := string(r.Body)
				switch {
				case tc.sees && (body["resourceType"] != "Patient" || body["id"] != id):
					t.Errorf("the match: %s", js)
				case !tc.sees && body["resourceType"] != "OperationOutcome":
					t.Errorf("not an outcome: %s", js)
				}
				if !tc.sees {
					for _, secret := range []string{"Matched", "Thi", phone, "1992", "female"} {
						if strings.Contains(js, secret) {
							t.Errorf("the answer shows %q: %s", secret, js)
						}
					}
				}
				_, r = send(t, api, "POST", "/fhir/R4/Patient", newPatientResource("Matched"), map[string]string{"If-None-Exist": condition["If-None-Exist"], "Prefer": "return=minimal"}, http.StatusOK)
				if len(r.Body) != 0 {
					t.Errorf("return=minimal: %s", r.Body)
				}
				if n := reads() - before; n != 2 {
					t.Errorf("matches audited as reads: %d", n)
				}
				// In a batch, the entry says where the match is, and no more to who may not read it.
				res, _ := json.Marshal(newPatientResource("Matched"))
				batch := map[string]any{"resourceType": "Bundle", "type": "batch", "entry": []any{map[string]any{"resource": json.RawMessage(res),
					"request": map[string]any{"method": "POST", "url": "Patient", "ifNoneExist": condition["If-None-Exist"]}}}}
				_, r = send(t, api, "POST", "/fhir/R4", batch, nil, http.StatusOK)
				if !strings.Contains(string(r.Body), "Patient/"+id) {
					t.Errorf("the batch's entry: %s", r.Body)
				}
				if !tc.sees && (strings.Contains(string(r.Body), "Matched") || strings.Contains(string(r.Body), `"resourceType":"Patient"`)) {
					t.Errorf("the batch shows the patient, or a bare Patient of it: %s", r.Body)
				}
				if !tc.sees && !strings.Contains(string(r.Body), `"code":"duplicate"`) {
					t.Errorf("the batch's entry does not say the match exists: %s", r.Body)
				}
				if n := reads() - before; n != 3 {
					t.Errorf("matches audited as reads, the batch's too: %d", n)
				}
			})
		}
		// Several matches (412) are a search that found them: audited as one.
		send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource("Matched Twin"), nil, http.StatusCreated)
		several := `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.list' AND detail LIKE 'conditional create: several%'`
		send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource("Third"), map[string]string{"If-None-Exist": "gender=female&birthdate=1992-05-17"}, http.StatusPreconditionFailed)
		if n := dbtest.Count(t, db, several); n != 1 {
			t.Errorf("several matches audited %d times", n)
		}
	})
}

// TestPatientScopesNeedALaunchContext: a user's API token has no patient launch context,
// so patient/ scopes are refused when it is made, in the caller's language; a token row
// carrying one (written by an older instance) is refused at use with the same words.
func TestPatientScopesNeedALaunchContext(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		r := c.admin.Do("POST", "/api/api-tokens", map[string]any{"user_id": c.env.UserID("doc"), "name": "chart", "scopes": "user/Patient.rs patient/Observation.rs", "expires_in_days": 30})
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a patient/ scope: %d %s", r.Status, r.Body)
		}
		if _, _, fields := r.Error(t); !strings.Contains(fmt.Sprint(fields["scopes"]), "launch context") {
			t.Errorf("the scopes' message: %s", r.Body)
		}
		api, id := c.token(t, "doc", "user/Patient.rs")
		get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusOK)
		if _, err := db.ExecContext(t.Context(), `UPDATE api_tokens SET scopes = 'patient/Patient.rs' WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		oo := get(t, api, fmt.Sprintf("/fhir/R4/Patient/%d", c.patientID), http.StatusForbidden)
		if js, _ := json.Marshal(oo); !strings.Contains(string(js), "launch context") {
			t.Errorf("at use: %s", js)
		}
	})
}

// TestPatientSearchesAreAudited: a FHIR search of the register is audited with the patients
// it answered (the patient itself when it found one), as reads of the record are.
func TestPatientSearchesAreAudited(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "clerk", "")
		get(t, api, "/fhir/R4/Patient?name=minh", http.StatusOK)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.list' AND actor_name = 'clerk' AND patient_id = $1 AND detail LIKE $2`,
			c.patientID, fmt.Sprintf("%%%d%%", c.patientID)); n != 1 {
			t.Errorf("a search finding one patient audited: %d", n)
		}
		get(t, api, "/fhir/R4/Patient?gender=female", http.StatusOK)
		get(t, api, "/fhir/R4/Patient?name=nobody", http.StatusOK)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'fhir.patient.list' AND actor_name = 'clerk'`); n != 3 {
			t.Errorf("searches audited: %d", n)
		}
	})
}

// TestStoredPatientScopesBecomeUserScopes: a token made with patient/ scopes before they were
// refused read them as user/ ones; the upgrade writes them as such, so it keeps exactly the
// access it had.
func TestStoredPatientScopesBecomeUserScopes(t *testing.T) {
	for _, e := range dbtest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			ctx := t.Context()
			db, err := database.Open(ctx, e.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.MigrateTo(ctx, 35); err != nil {
				t.Fatal(err)
			}
			if _, err := (&user.Store{DB: db}).Create(ctx, user.NewUser{Username: "lab-link", Name: "Lab link", Roles: []string{"doctor"}, Password: "lantern orchard 7 glacier 9"}); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			for i, scopes := range []string{"patient/*.rs user/Observation.cruds", "", "user/Patient.r"} {
				if _, err := db.ExecContext(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, scopes, created_at, expires_at)
					VALUES ((SELECT id FROM users WHERE username = 'lab-link'), $1, $2, $3, $4, $5)`, fmt.Sprint("t", i), fmt.Sprint("hash", i), scopes, now, now.Add(time.Hour)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			var got []string
			rows, err := db.QueryContext(ctx, `SELECT scopes FROM api_tokens ORDER BY id`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
			if want := []string{"user/*.rs user/Observation.cruds", "", "user/Patient.r"}; !slices.Equal(got, want) {
				t.Errorf("after the upgrade: %q, want %q", got, want)
			}
		})
	}
}
