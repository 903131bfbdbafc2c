package profile_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type profile struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Pic          string `json:"pic"`
	HasSignature bool   `json:"has_signature"`
	SignatureURL string `json:"signature_url"`
	Licences     []struct {
		Number, ValidUntil string
	} `json:"licences"`
	Version int `json:"version"`
}

func pngOf(t *testing.T, mark bool) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	if mark {
		img.Set(10, 10, color.NRGBA{B: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSignatureRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		doc := env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
		other := env.LoggedIn("other", env.CreateUser("other", "doctor"))
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))

		var p profile
		if r := doc.Upload("PUT", "/api/profile/signature", "s.png", pngOf(t, true)); r.Status != http.StatusOK {
			t.Fatalf("save: %d %s", r.Status, r.Body)
		}
		doc.Do("GET", "/api/get-profile", nil).JSON(t, &p)
		if !p.HasSignature || p.Name != "Test doc" {
			t.Fatalf("profile: %+v", p)
		}
		before := doc.Do("GET", p.SignatureURL, nil).Body

		refused := map[string][]byte{
			"empty pad":      pngOf(t, false),
			"a text file":    []byte("this is not an image"),
			"a GIF":          []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
			"SVG and script": []byte(`<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L9 9"/><script>alert(1)</script></svg>`),
			"SVG handler":    []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><path d="M0 0L9 9"/></svg>`),
			"10 MB":          append(pngOf(t, true), make([]byte, 10<<20)...),
		}
		for name, data := range refused {
			r := doc.Upload("PUT", "/api/profile/signature", "s.png", data)
			if r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
			}
		}
		if after := doc.Do("GET", p.SignatureURL, nil).Body; !bytes.Equal(before, after) {
			t.Errorf("a refused upload replaced the signature")
		}
		svg := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><rect width="100%" height="100%" fill="white"/><path d="M1 1L9 9" fill="black"/></svg>`
		if r := doc.Upload("PUT", "/api/profile/signature", "s.svg", []byte(svg)); r.Status != http.StatusOK {
			t.Errorf("SVG: %d %s", r.Status, r.Body)
		}
		doc.Do("GET", "/api/get-profile", nil).JSON(t, &p)
		if r := doc.Do("GET", p.SignatureURL, nil); r.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(r.Header.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("SVG served as %v", r.Header)
		}

		// Removing: one's own, with the CSRF header; not another's, unless an admin.
		path := fmt.Sprintf("/api/remove-signature/%d", p.ID)
		other.Upload("PUT", "/api/profile/signature", "s.png", pngOf(t, true))
		if r := other.Do("GET", path, nil); r.Status != http.StatusForbidden {
			t.Errorf("another user removes it: %d", r.Status)
		}
		doc.NoCSRF = true
		if r := doc.Do("GET", path, nil); r.Status != http.StatusForbidden {
			t.Errorf("without the CSRF header: %d", r.Status)
		}
		doc.NoCSRF = false
		if r := doc.Do("GET", path, nil); r.Status != http.StatusNoContent {
			t.Errorf("remove own: %d", r.Status)
		}
		doc.Do("GET", "/api/get-profile", nil).JSON(t, &p)
		if p.HasSignature {
			t.Errorf("still has a signature")
		}
		var op profile
		other.Do("GET", "/api/get-profile", nil).JSON(t, &op)
		if r := admin.Do("GET", fmt.Sprintf("/api/remove-signature/%d", op.ID), nil); r.Status != http.StatusNoContent {
			t.Errorf("admin removes another's: %d", r.Status)
		}
	})
}

func TestProfileUpdateAndPassword(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		pw := env.CreateUser("doc", "doctor")
		doc := env.LoggedIn("doc", pw)
		elsewhere := env.LoggedIn("doc", pw)

		var p profile
		doc.Do("GET", "/api/get-profile", nil).JSON(t, &p)
		r := doc.Do("PATCH", "/api/update-profile", map[string]any{"version": p.Version, "name": "Dr Mai", "licences": []map[string]string{{"number": "VN-123", "valid_until": "2030-01-01"}}})
		r.JSON(t, &p)
		if r.Status != http.StatusOK || p.Name != "Dr Mai" || p.Licences[0].Number != "VN-123" {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		var me struct{ Name string }
		doc.Do("GET", "/api/user", nil).JSON(t, &me)
		if me.Name != "Dr Mai" {
			t.Errorf("the new name is not the user's: %q", me.Name)
		}

		// Avatar: a picture, shown on the user.
		r = doc.Upload("PUT", "/api/profile/avatar", "a.png", pngOf(t, true))
		r.JSON(t, &p)
		if r.Status != http.StatusOK || !strings.HasPrefix(p.Pic, fmt.Sprintf("/api/users/%d/avatar", p.ID)) {
			t.Errorf("avatar: %d %s", r.Status, r.Body)
		}
		if r := elsewhere.Do("GET", p.Pic, nil); r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
			t.Errorf("read avatar: %d", r.Status)
		}

		// A new password ends the other sessions (TestProfileRules: what it refuses).
		if r := doc.Do("POST", "/api/profile/password", map[string]any{"current_password": pw, "new_password": "a new long password"}); r.Status != http.StatusNoContent {
			t.Fatalf("change: %d %s", r.Status, r.Body)
		}
		if r := elsewhere.Do("GET", "/api/user", nil); r.Status != http.StatusUnauthorized {
			t.Errorf("another session lives on: %d", r.Status)
		}
		if r := doc.Do("GET", "/api/user", nil); r.Status != http.StatusOK {
			t.Errorf("own session ended: %d", r.Status)
		}
		if r := env.Client().Login("doc", "a new long password"); r.Status != http.StatusOK {
			t.Errorf("login with the new password: %d", r.Status)
		}
		var act struct {
			Data []struct{ Action, Outcome string }
		}
		doc.Do("GET", "/api/profile/activity", nil).JSON(t, &act)
		if len(act.Data) < 2 || act.Data[1].Action != "profile.password" { // after the login with it
			t.Errorf("activity: %+v", act.Data)
		}
	})
}
