package server_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database/dbtest"
)

// FuzzWriteBodies sends any body to every write route of the API as the administrator (the
// seed corpus runs in every go test, on SQLite): whatever it is, the answer is never 5xx.
func FuzzWriteBodies(f *testing.F) {
	db := dbtest.Open(f, dbtest.Engines()[0].URL(f))
	env := apitest.New(f, db)
	admin := env.LoggedIn("fuzz-admin", env.CreateUser("fuzz-admin", "admin"))
	for _, seed := range []string{
		`{}`, `[]`, `null`, `""`, `1e999`, `{"version":-1}`, `{"version":"1"}`,
		`{"first_name":"An","last_name":"Le","birth_date":"1990-02-30","sex":"male"}`,
		`{"items":[{"medicine":"x","quantity":"1e400"}]}`, `{"items":[null]}`, `{"history":{"allergies":[{}]}}`,
		`{"matrix":{"nurse":["no such permission"]},"version":0}`, `{"starts_at":"9999-99-99T99:99"}`,
		`{"username":"` + "\u202e" + `admin","password":"x"}`, `{"a":` + "\xff" + `}`, "\x00",
	} {
		f.Add([]byte(seed))
	}
	var writes [][2]string
	for _, rt := range env.Server.Routes {
		if rt.Method != http.MethodGet && rt.Path != "/api/auth/logout" && rt.Path != "/api/profile/avatar" {
			writes = append(writes, [2]string{rt.Method, pathParam.ReplaceAllString(rt.Path, "999999")})
		}
	}
	token := admin.Cookie("XSRF-TOKEN")
	f.Fuzz(func(t *testing.T, body []byte) {
		// Plain requests through the admin's client (its helpers belong to the fuzz test).
		for _, w := range writes {
			req, err := http.NewRequest(w[0], env.HTTP.URL+w[1], bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-XSRF-TOKEN", token)
			resp, err := admin.HTTP.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode >= 500 {
				t.Fatalf("%s %s with %q: %d %s", w[0], w[1], body, resp.StatusCode, out)
			}
		}
	})
}
