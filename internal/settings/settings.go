// Package settings keeps the clinic-wide settings an admin sets: the clinic's name,
// address and phone that head every printed prescription.
package settings

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
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
	// Version is 0 until an admin first saves the settings.
	Version int `json:"version"`
}

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
	for field, s := range map[string]string{"name": c.Name, "address": c.Address, "phone": c.Phone, "tax_id": c.TaxID, "public_url": c.PublicURL} {
		if utf8.RuneCountInString(s) > 300 {
			v.Add(field, "validation.too_long")
		}
	}
	return v.Err()
}
