package server_test

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// tableCounts is the number of rows of every table.
func tableCounts(t *testing.T, db *database.DB) map[string]int {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if db.Engine == database.Postgres {
		q = `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`
	}
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	out := map[string]int{}
	for _, n := range names {
		out[n] = dbtest.Count(t, db, `SELECT COUNT(*) FROM "`+n+`"`) // names from the catalogue, not from input
	}
	return out
}

const nul = "ad\x00min"

// hostileBody sets every field a write may read to text with a NUL byte (fields of another
// type are then refused as unreadable: 4xx either way).
var hostileBody = map[string]any{
	"username": nul, "password": "pass\x00word-long-enough", "name": nul, "first_name": nul, "middle_name": nul, "last_name": nul,
	"sex": nul, "birth_date": nul, "phone": nul, "email": nul, "address": nul, "reason": nul, "code": nul, "label_en": nul,
	"generic_name": nul, "brand": nul, "strength": nul, "form": nul, "unit": nul, "medicine": nul, "chief_complaint": nul,
	"notes": nul, "current_password": nul, "new_password": nul, "role": nul, "title": nul, "text": nul, "q": nul,
	"history":   map[string]any{"allergies": []any{map[string]any{"substance": nul}}},
	"items":     []any{map[string]any{"medicine": nul, "quantity": "1"}},
	"diagnoses": []any{map[string]any{"text": nul}},
}

// TestControlCharactersAreRefusedEverywhere sends every route (as the administrator, who may
// use them all) a body and a query full of NUL bytes: each answers 4xx, never 5xx, and no
// table changes, on both engines. A few fields are checked for the message naming them.
func TestControlCharactersAreRefusedEverywhere(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("hostile-admin", env.CreateUser("hostile-admin", "admin"))
		anonymous := env.Client()
		anonymous.Do("GET", "/api/sanctum/csrf-cookie", nil)

		// The anonymous login: refused before any lookup, so neither throttled nor audited.
		before := tableCounts(t, db)
		r := anonymous.Do("POST", "/api/auth/login", map[string]any{"username": nul, "password": "whatever-password"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["username"]) == 0 {
			t.Errorf("login with a NUL: %d %s", r.Status, r.Body)
		}
		r = admin.Do("POST", "/api/patients", map[string]any{"first_name": "An\x00", "last_name": "Le", "birth_date": "1990-01-01", "sex": "male"})
		if msg, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(fields["first_name"], ""), "control characters") {
			t.Errorf("patient with a NUL: %d %s %v", r.Status, msg, fields)
		}
		r = admin.Do("GET", "/api/users?q="+url.QueryEscape("u7\x00"), nil)
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["q"]) == 0 {
			t.Errorf("user search with a NUL: %d %s", r.Status, r.Body)
		}
		// Other control characters too; tab and newline are text.
		for _, s := range []string{"a\x01b", "a\x1bb", "a\u0085b", "a\x7fb"} {
			if r := admin.Do("POST", "/api/patients", map[string]any{"first_name": s, "last_name": "Le", "birth_date": "1990-01-01", "sex": "male"}); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%q: %d", s, r.Status)
			}
		}

		// Logout ends the session; removing one's own avatar, starting a two-factor set-up and
		// installing the starter price list or templates read no input at all.
		routes := slices.DeleteFunc(slices.Clone(env.Server.Routes), func(rt auth.Route) bool {
			return rt.Path == "/api/auth/logout" || slices.Contains([]string{"DELETE /api/profile/avatar", "POST /api/profile/two-factor/setup", "POST /api/services/starter", "POST /api/document-templates/starter"}, rt.Method+" "+rt.Path)
		})
		query := "?" + url.Values{"q": {nul}, "user": {nul}, "from": {nul}, "code": {nul}, "patient": {nul}}.Encode()
		for _, rt := range routes {
			path := pathParam.ReplaceAllString(rt.Path, "999999") // nothing real to act on, if a route reads no body
			var r apitest.Response
			if rt.Method == http.MethodGet {
				r = admin.Do(rt.Method, path+query, nil)
			} else {
				r = admin.Do(rt.Method, path, hostileBody)
			}
			if r.Status < 400 || r.Status >= 500 {
				t.Errorf("%s %s: %d %s", rt.Method, rt.Path, r.Status, r.Body)
			}
		}
		if after := tableCounts(t, db); !maps.Equal(before, after) {
			for k, v := range after {
				if before[k] != v {
					t.Errorf("table %s: %d rows, %d before", k, v, before[k])
				}
			}
		}
	})
}

// TestBodiesAndListsFollowOneRule: a JSON route reads only application/json (415), a body
// over the limit is 413, a null body is refused and changes nothing, and every list takes
// the same page sizes (422 for another, patients included).
func TestBodiesAndListsFollowOneRule(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("rules-admin", env.CreateUser("rules-admin", "admin"))
		patient := []byte(`{"first_name":"An","last_name":"Le","birth_date":"1990-01-01","sex":"male"}`)

		admin.Header.Set("Content-Type", "text/plain")
		if r := admin.Do("POST", "/api/patients", patient); r.Status != http.StatusUnsupportedMediaType {
			t.Errorf("text/plain: %d %s", r.Status, r.Body)
		}
		admin.Header.Del("Content-Type")
		big := []byte(`{"first_name":"` + strings.Repeat("a", 2<<20) + `"}`)
		if r := admin.Do("POST", "/api/patients", big); r.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("2 MiB body: %d", r.Status)
		}
		version := dbtest.Count(t, db, `SELECT COALESCE(MAX(value), 0) FROM counters WHERE name = 'roles:matrix'`)
		for _, body := range []string{`null`, `{}`, `{"version": 0}`} {
			if r := admin.Do("PUT", "/api/roles/matrix", []byte(body)); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("matrix %s: %d", body, r.Status)
			}
		}
		if v := dbtest.Count(t, db, `SELECT COALESCE(MAX(value), 0) FROM counters WHERE name = 'roles:matrix'`); v != version {
			t.Errorf("the matrix version moved from %d to %d", version, v)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM patients"); n != 0 {
			t.Errorf("%d patients stored", n)
		}
		for _, list := range []string{"/api/patients?q=", "/api/users?q=", "/api/medicines?q=", "/api/appointments?patient_id=1", "/api/audit-events?q="} {
			for size, want := range map[string]int{"20": http.StatusOK, "500": http.StatusUnprocessableEntity, "0": http.StatusUnprocessableEntity, "7": http.StatusUnprocessableEntity} {
				if r := admin.Do("GET", list+"&per_page="+size, nil); r.Status != want {
					t.Errorf("%s per_page=%s: %d, want %d: %s", list, size, r.Status, want, r.Body)
				}
			}
		}
	})
}

// TestWrongKindsNameTheirField: a value of the wrong JSON kind is a 422 naming the field, not
// an unreadable request; a quantity sent as a number is taken as a person would mean it.
func TestWrongKindsNameTheirField(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		doc := env.LoggedIn("kinds-doctor", env.CreateUser("kinds-doctor", "doctor"))
		r := doc.Do("POST", "/api/patients", map[string]any{"first_name": 12, "last_name": "Le", "birth_date": "1990-01-01", "sex": "male"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["first_name"]) == 0 {
			t.Errorf("a number for a name: %d %v", r.Status, fields)
		}
		r = doc.Do("POST", "/api/prescriptions", map[string]any{"items": []any{map[string]any{"medicine": "Paracetamol 500 mg", "quantity": 12}}})
		var rx struct {
			Items []struct {
				Quantity string `json:"quantity"`
			} `json:"items"`
		}
		r.JSON(t, &rx)
		if r.Status != http.StatusCreated || len(rx.Items) != 1 || rx.Items[0].Quantity != "12" {
			t.Errorf("a quantity as a number: %d %s", r.Status, r.Body)
		}
		r = doc.Do("POST", "/api/prescriptions", map[string]any{"items": []any{map[string]any{"medicine": "Paracetamol 500 mg", "quantity": true}}})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["items.quantity"]) == 0 {
			t.Errorf("a quantity as true: %d %v", r.Status, fields)
		}
	})
}
