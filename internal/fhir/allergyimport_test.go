package fhir_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestAllergiesKeepTheirNegation: what a register file says is not an allergy never becomes
// one (a refuted allergy, one entered in error), and "no known allergy" goes out as US Core
// asks: the negation in the code, asserted (active, confirmed), never a "refuted" beside it,
// which would read as "the patient has allergies".
func TestAllergiesKeepTheirNegation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		verified := func(code string) string {
			return `,"verificationStatus":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/allergyintolerance-verification","code":"` + code + `"}]}`
		}
		for _, row := range []struct {
			family, allergy, history string
		}{
			// R4 AllergyIntolerance.verificationStatus "refuted": "disputed or disproven with a sufficient level of clinical certainty".
			{"Refuted", `"code":{"text":"penicillin"}` + verified("refuted"), `"allergy_status":"unknown"`},
			// R4 allergyintolerance-verification "entered-in-error": "the statement was entered in error and is not valid".
			{"Erroneous", `"code":{"text":"latex"}` + verified("entered-in-error"), `"allergy_status":"unknown"`},
			// R4 "unconfirmed": "a low level of certainty" — still a risk, so kept as an allergy (the cautious side, ADR 38).
			{"Unconfirmed", `"code":{"text":"aspirin"}` + verified("unconfirmed"), `aspirin`},
			// SNOMED CT 716186003 No known allergy; US Core AllergyIntolerance guidance: "no known allergies" is a code, asserted.
			{"Nka", `"code":{"coding":[{"system":"http://snomed.info/sct","code":"716186003"}]}`, `"allergy_status":"none"`},
			// No known drug (food) allergy is neither an allergy to list nor "none known": SNOMED CT
			// 409137002 and 429625007 are situations about one kind of substance (SNOMED CT browser,
			// "Situation with explicit context"; IPS AllergyIntolerance absent-or-unknown value set).
			{"Nkda", `"code":{"coding":[{"system":"http://snomed.info/sct","code":"409137002","display":"No known drug allergy"}]}`, `"allergy_status":"unknown"`},
			{"Nkfa", `"code":{"coding":[{"system":"http://snomed.info/sct","code":"429625007","display":"No known food allergy"}]}`, `"allergy_status":"unknown"`},
		} {
			nd := `{"resourceType":"Patient","id":"p1","name":[{"family":"` + row.family + `","given":["Yui"]}],"gender":"female","birthDate":"1999-09-09"}` + "\n" +
				`{"resourceType":"AllergyIntolerance","patient":{"reference":"Patient/p1"},` + row.allergy + `}` + "\n"
			if r := c.clerk.Upload("POST", "/api/patients/import", "register.ndjson", []byte(nd)); r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", row.family, r.Status, r.Body)
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name = $1 AND history LIKE $2`, row.family, "%"+row.history+"%"); n != 1 {
				t.Errorf("%s: history should hold %s", row.family, row.history)
			}
		}
		api, _ := c.token(t, "doc", "")
		nka := get(t, api, fmt.Sprintf("/fhir/R4/AllergyIntolerance/%d-nka", c.nkaID), http.StatusOK)
		if !strings.Contains(fmt.Sprint(nka["verificationStatus"]), "confirmed") || !strings.Contains(fmt.Sprint(nka["clinicalStatus"]), "active") ||
			!strings.Contains(fmt.Sprint(nka["code"]), "716186003") {
			t.Errorf("no known allergy: %v %v %v", nka["clinicalStatus"], nka["verificationStatus"], nka["code"])
		}
		// A listed allergy claims no certainty the record does not hold (an unconfirmed one
		// imported, or any the clinic listed).
		var aspirin int64
		if err := db.QueryRowContext(t.Context(), `SELECT id FROM patients WHERE last_name = 'Unconfirmed'`).Scan(&aspirin); err != nil {
			t.Fatal(err)
		}
		listed := get(t, api, fmt.Sprintf("/fhir/R4/AllergyIntolerance/%d-1", aspirin), http.StatusOK)
		if v, ok := listed["verificationStatus"]; ok {
			t.Errorf("a listed allergy claims %v", v)
		}
	})
}
