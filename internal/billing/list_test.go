package billing_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type billList struct {
	Data []struct {
		ID      int64  `json:"id"`
		Number  string `json:"number"`
		Status  string `json:"status"`
		Balance int64  `json:"balance"`
		Patient struct {
			Name string `json:"name"`
		} `json:"patient"`
	} `json:"data"`
	Total int `json:"total"`
}

// The desk finds a bill without the queue: by its number, by the patient's name, by the
// patient, by status and by the day it was written; a walk-in draft is among them.
func TestDeskFindsBills(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.openDrawers(t) // every drawer counts its float in, 0 included (the cashier's review, M5)
		walkIn := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": s.patientID})
		paid := s.finalPaid(t, 60, "cash")
		appt := s.book(t, 120)
		owing := apitest.Do[bill](t, s.front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", appt), map[string]any{"service_id": s.lab, "quantity": 1})
		owing = apitest.Do[bill](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", owing.ID), map[string]any{"version": owing.Version})
		var other struct{ ID int64 }
		s.front.Do("POST", "/api/patients", map[string]any{"first_name": "Olga", "last_name": "Petrova", "birth_date": "1961-02-03", "sex": "female", "history": map[string]any{"allergy_status": "none"}}).JSON(t, &other)
		apitest.Do[bill](t, s.front, http.StatusCreated, "POST", "/api/bills", map[string]any{"patient_id": other.ID})

		today := time.Now().Format(time.DateOnly)
		for _, c := range []struct {
			query string
			want  []int64
		}{
			{"status=draft&q=" + url.QueryEscape("Trần"), []int64{walkIn.ID}},
			{"status=unpaid", []int64{owing.ID}},
			{"status=paid", []int64{paid.ID}},
			{"q=" + owing.Number, []int64{owing.ID}},
			{"q=" + owing.Number[3:], []int64{owing.ID}},
			{fmt.Sprintf("patient_id=%d", s.patientID), []int64{owing.ID, paid.ID, walkIn.ID}},
			{"q=Petrova", []int64{walkIn.ID + 3}},
			{"q=Nobody", nil},
			{"from=" + today + "&to=" + today + "&q=Lan", []int64{owing.ID, paid.ID, walkIn.ID}},
			{"from=2001-01-01&to=2001-01-02", nil},
		} {
			got := apitest.Do[billList](t, s.front, http.StatusOK, "GET", "/api/bills?"+c.query, nil)
			ids := []int64{}
			for _, b := range got.Data {
				ids = append(ids, b.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(append([]int64{}, c.want...)) || got.Total != len(c.want) {
				t.Errorf("%s: %v (total %d), want %v", c.query, ids, got.Total, c.want)
			}
		}
		for _, bad := range []string{"status=owed", "from=yesterday", "patient_id=x", "per_page=7"} {
			if r := s.front.Do("GET", "/api/bills?"+bad, nil); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d", bad, r.Status)
			}
		}
		// The patient's name follows the caller's language, as the screens write it.
		for lang, want := range map[string]string{"en": "Lan Trần", "vi": "Trần Lan", "ru": "Trần Lan"} {
			s.front.SetCookie("language", lang)
			got := apitest.Do[billList](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/bills?patient_id=%d", s.patientID), nil)
			one := apitest.Do[settled](t, s.front, http.StatusOK, "GET", fmt.Sprintf("/api/bills/%d", paid.ID), nil)
			if got.Data[0].Patient.Name != want || one.Patient.Name != want {
				t.Errorf("%s: list %q, bill %q, want %q", lang, got.Data[0].Patient.Name, one.Patient.Name, want)
			}
		}
		if r := s.nurse.Do("GET", "/api/bills", nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse listing bills: %d", r.Status)
		}
	})
}
