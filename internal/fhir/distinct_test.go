package fhir_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

const (
	distinctFrom      = "urn:emr:fhir:StructureDefinition:distinct-from"
	possibleDuplicate = "urn:emr:fhir:StructureDefinition:possible-duplicate"
)

// confirmed is res with one distinct-from extension for each of patients.
func confirmed(res map[string]any, patients ...string) map[string]any {
	out := map[string]any{}
	for k, v := range res {
		out[k] = v
	}
	var ext []any
	for _, p := range patients {
		ext = append(ext, map[string]any{"url": distinctFrom, "valueReference": reference(p)})
	}
	out["extension"] = ext
	return out
}

// twinsNamed are the patients a refusal's issues name as possible duplicates.
func twinsNamed(t *testing.T, oo map[string]any) []string {
	t.Helper()
	var out []string
	for _, i := range oo["issue"].([]any) {
		for _, x := range asList(i.(map[string]any)["extension"]) {
			x := x.(map[string]any)
			if x["url"] != possibleDuplicate {
				t.Errorf("an issue's extension: %v", x)
			}
			out = append(out, x["valueReference"].(map[string]any)["reference"].(string))
		}
	}
	return out
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

// TestFHIRPossibleDuplicateConfirmed: a registration that may be a registered patient is
// refused (409) naming those patients, in the issue's text (the caller's language) and as
// possible-duplicate extensions; the Patient sent again with one distinct-from extension per
// patient named — exactly those — is registered, audited as the desk's confirmation, the
// extension not kept. The same on its own, conditional, in a transaction and in a batch
// (registrations in bulk too).
func TestFHIRPossibleDuplicateConfirmed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		clerk, _ := c.token(t, "clerk", "")
		register := func(family string) string {
			p, _ := send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource(family), nil, http.StatusCreated)
			return "Patient/" + p["id"].(string)
		}

		// The CapabilityStatement declares both extensions.
		if cs := fmt.Sprint(get(t, clerk, "/fhir/R4/metadata", http.StatusOK)); !strings.Contains(cs, distinctFrom) || !strings.Contains(cs, possibleDuplicate) {
			t.Errorf("the CapabilityStatement does not declare the extensions")
		}

		// On its own: refused, naming the twin in the caller's language.
		first := register("Hoang")
		oo, _ := send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource("Hoang"), map[string]string{"Accept-Language": "vi"}, http.StatusConflict)
		issue := oo["issue"].([]any)[0].(map[string]any)
		if issue["code"] != "duplicate" || !strings.Contains(issue["diagnostics"].(string), first) || !strings.Contains(issue["diagnostics"].(string), "Bệnh nhân") ||
			!strings.Contains(issue["diagnostics"].(string), distinctFrom) {
			t.Errorf("the refusal: %v", oo)
		}
		if got := twinsNamed(t, oo); !slices.Equal(got, []string{first}) {
			t.Errorf("twins named: %v, want %s", got, first)
		}
		clerk.Header.Set("Accept-Language", "en")

		// Confirmed, but not exactly the twins: refused again, naming them.
		for _, names := range [][]string{{fmt.Sprintf("Patient/%d", c.nkaID)}, {first, fmt.Sprintf("Patient/%d", c.nkaID)}} {
			oo, _ = send(t, clerk, "POST", "/fhir/R4/Patient", confirmed(newPatientResource("Hoang"), names...), nil, http.StatusConflict)
			if got := twinsNamed(t, oo); !slices.Equal(got, []string{first}) {
				t.Errorf("confirmed %v: twins named %v", names, got)
			}
		}
		bad := confirmed(newPatientResource("Hoang"), "Practitioner/1")
		send(t, clerk, "POST", "/fhir/R4/Patient", bad, nil, http.StatusBadRequest)

		// Confirmed exactly: registered, the confirmation audited, the extension not kept.
		p, r := send(t, clerk, "POST", "/fhir/R4/Patient", confirmed(newPatientResource("Hoang"), first), nil, http.StatusCreated)
		if p["extension"] != nil || r.Header.Get("X-FHIR-Dropped") != "" {
			t.Errorf("the confirmation was kept or dropped: %v %v", p["extension"], r.Header)
		}
		second := "Patient/" + p["id"].(string)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.create' AND entity_id = $1 AND detail = $2`,
			p["id"], audit.Phrases(audit.Phrase{Key: "audit.detail.distinct_from", Args: []string{strings.TrimPrefix(first, "Patient/")}})); n != 1 {
			t.Errorf("the confirmation is not audited as the desk's")
		}
		if got := get(t, clerk, "/fhir/R4/"+second, http.StatusOK); got["extension"] != nil {
			t.Errorf("read back with an extension: %v", got["extension"])
		}
		// A confirmation where there is no possible duplicate: refused, nothing to confirm.
		oo, _ = send(t, clerk, "POST", "/fhir/R4/Patient", confirmed(newPatientResource("Nobody"), first), nil, http.StatusConflict)
		if issue := oo["issue"].([]any)[0].(map[string]any); !strings.Contains(issue["diagnostics"].(string), distinctFrom) || issue["extension"] != nil {
			t.Errorf("a confirmation of nothing: %v", oo)
		}

		// A conditional create that finds no one: the same refusal, the same confirmation.
		cond := map[string]string{"If-None-Exist": "identifier=urn:other|H-1"}
		oo, _ = send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource("Hoang"), cond, http.StatusConflict)
		if got := twinsNamed(t, oo); !slices.Equal(got, []string{first, second}) {
			t.Errorf("conditional: twins named %v", got)
		}
		send(t, clerk, "POST", "/fhir/R4/Patient", confirmed(newPatientResource("Hoang"), first, second), cond, http.StatusCreated)
		clerk.Header.Del("If-None-Exist")

		// In a transaction: the entry named, then confirmed.
		third := register("Quach")
		oo, _ = send(t, clerk, "POST", "/fhir/R4", bundleOf("transaction", writeEntry("", newPatientResource("Quach"), "POST", "Patient")), nil, http.StatusConflict)
		if got := twinsNamed(t, oo); !slices.Equal(got, []string{third}) || !strings.Contains(fmt.Sprint(oo["issue"]), "Bundle.entry[0]") {
			t.Errorf("transaction: %v", oo)
		}
		resp, _ := send(t, clerk, "POST", "/fhir/R4", bundleOf("transaction", writeEntry("", confirmed(newPatientResource("Quach"), third), "POST", "Patient")), nil, http.StatusOK)
		if got := statuses(resp); !slices.Equal(got, []string{"201 Created"}) {
			t.Errorf("transaction confirmed: %v", got)
		}

		// In a batch of registrations (written in bulk): the twin's entry refused naming it;
		// confirmed, it is registered one by one.
		fourth := register("Vuong")
		resp, _ = send(t, clerk, "POST", "/fhir/R4", bundleOf("batch", writeEntry("", newPatientResource("Vuong"), "POST", "Patient"),
			writeEntry("", newPatientResource("Fresh"), "POST", "Patient")), nil, http.StatusOK)
		if got := statuses(resp); !slices.Equal(got, []string{"409 Conflict", "201 Created"}) {
			t.Fatalf("batch: %v", got)
		}
		if got := twinsNamed(t, responses(resp)[0]["outcome"].(map[string]any)); !slices.Equal(got, []string{fourth}) {
			t.Errorf("batch: twins named %v", got)
		}
		resp, _ = send(t, clerk, "POST", "/fhir/R4", bundleOf("batch", writeEntry("", confirmed(newPatientResource("Vuong"), fourth), "POST", "Patient"),
			writeEntry("", newPatientResource("Fresher"), "POST", "Patient")), nil, http.StatusOK)
		if got := statuses(resp); !slices.Equal(got, []string{"201 Created", "201 Created"}) {
			t.Errorf("batch confirmed: %v %v", got, resp)
		}
		// A transaction of registrations in bulk names the twin too.
		oo, _ = send(t, clerk, "POST", "/fhir/R4", bundleOf("transaction", writeEntry("", newPatientResource("Freshest"), "POST", "Patient"),
			writeEntry("", newPatientResource("Vuong"), "POST", "Patient")), nil, http.StatusConflict)
		if got := twinsNamed(t, oo); len(got) != 2 || !strings.Contains(fmt.Sprint(oo["issue"]), "Bundle.entry[1]") {
			t.Errorf("bulk transaction: %v", oo)
		}
	})
}

// TestPossibleDuplicatesAreNamedOnlyToWhoSearchesTheRegister: the twins of a refused
// registration are a search of the register by name, birth date and sex or by phone; a
// caller who may not search it (a create-only scope) is refused without them, and may not
// confirm (403): otherwise a phone number sent in a Patient would answer whose it is.
func TestPossibleDuplicatesAreNamedOnlyToWhoSearchesTheRegister(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		clerk, _ := c.token(t, "clerk", "")
		first, _ := send(t, clerk, "POST", "/fhir/R4/Patient", newPatientResource("Hoang"), nil, http.StatusCreated)
		twin := "Patient/" + first["id"].(string)
		createOnly, _ := c.token(t, "clerk", "user/Patient.c")
		oo, _ := send(t, createOnly, "POST", "/fhir/R4/Patient", newPatientResource("Hoang"), nil, http.StatusConflict)
		if got := twinsNamed(t, oo); len(got) != 0 || strings.Contains(fmt.Sprint(oo), twin) || oo["issue"].([]any)[0].(map[string]any)["code"] != "duplicate" {
			t.Errorf("a create-only token is told the twins: %v", oo)
		}
		oo, _ = send(t, createOnly, "POST", "/fhir/R4/Patient", confirmed(newPatientResource("Hoang"), twin), nil, http.StatusForbidden)
		if strings.Contains(fmt.Sprint(oo), twin+" ") {
			t.Errorf("the refused confirmation: %v", oo)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients WHERE last_name = 'Hoang'`); n != 1 {
			t.Errorf("patients named Hoang: %d", n)
		}
	})
}
