// Package settings keeps the clinic-wide settings an admin sets: the clinic's name,
// address and phone that head every printed prescription.
package settings

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/textsearch"
)

// Clinic is the header of printed prescriptions and documents, and the address at which
// those who receive a document check it.
type Clinic struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Phone   string `json:"phone"`
	// TaxID is the clinic's tax or business registration number, printed on its money's
	// papers (receipts, statements) so that a payer can name who was paid.
	TaxID string `json:"tax_id"`
	// PublicURL is where the clinic's server is reached from outside ("https://emr.example.org"),
	// which printed documents' QR codes point to; empty: the address staff use.
	PublicURL string `json:"public_url"`
	// NumberSystem is the URI naming the clinic's patient numbers to other systems (the FHIR
	// identifier system of Patient.identifier); empty: derived (PatientNumberSystem).
	NumberSystem string `json:"number_system"`
	// Version is 0 until an admin first saves the settings.
	Version int `json:"version"`
}

// CallingCode is the clinic's country calling code, read from its phone number written
// internationally ("+84 28 …"); "" when it is written domestically. A patient's number written
// domestically is taken to be in this country when a code sent to a phone must match it.
func (c Clinic) CallingCode() string { return textsearch.CallingCode(c.Phone) }

const clinicKey = "clinic"

func (c *Clinic) clean() error {
	var v apperr.Validation
	c.Name, c.Phone, c.TaxID = strings.TrimSpace(c.Name), strings.TrimSpace(c.Phone), strings.TrimSpace(c.TaxID)
	c.Address = strings.TrimSpace(strings.ReplaceAll(c.Address, "\r\n", "\n"))
	if c.Name == "" {
		v.Add("name", "validation.required")
	}
	c.PublicURL = strings.TrimRight(strings.TrimSpace(c.PublicURL), "/")
	if u, err := url.Parse(c.PublicURL); c.PublicURL != "" && (err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil) {
		v.Add("public_url", "settings.bad_public_url")
	}
	c.NumberSystem = strings.TrimSpace(c.NumberSystem)
	if u, err := url.Parse(c.NumberSystem); c.NumberSystem != "" && (err != nil || !u.IsAbs() || strings.ContainsAny(c.NumberSystem, " |")) {
		v.Add("number_system", "settings.bad_number_system")
	}
	for field, s := range map[string]string{"name": c.Name, "address": c.Address, "phone": c.Phone, "tax_id": c.TaxID, "public_url": c.PublicURL, "number_system": c.NumberSystem} {
		if utf8.RuneCountInString(s) > 300 {
			v.Add(field, "validation.too_long")
		}
	}
	return v.Err()
}

// LegacyNumberSystem names the patient numbers of a clinic that has set neither a number
// system nor a public address; integrations that began with it keep finding patients by it.
const LegacyNumberSystem = "urn:emr:mrn"

// NumberSystemPath is where, under the clinic's public address, its number system is named
// by default: "https://emr.example.org/fhir/sid/patient-number" (HL7's own systems live under
// hl7.org/fhir/sid/), so that two clinics' numbers never share a system.
const NumberSystemPath = "/fhir/sid/patient-number"

// PatientNumberSystem is the URI of the clinic's patient numbers: the one set, else one
// under its public address, else LegacyNumberSystem.
func (c Clinic) PatientNumberSystem() string {
	switch {
	case c.NumberSystem != "":
		return c.NumberSystem
	case c.PublicURL != "":
		return strings.TrimRight(c.PublicURL, "/") + NumberSystemPath
	}
	return LegacyNumberSystem
}
