// Package settings keeps the clinic-wide settings an admin sets: the clinic's name,
// address and phone that head every printed prescription.
package settings

import (
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
)

// Clinic is the header of printed prescriptions.
type Clinic struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Phone   string `json:"phone"`
	// Version is 0 until an admin first saves the settings.
	Version int `json:"version"`
}

const clinicKey = "clinic"

func (c *Clinic) clean() error {
	var v apperr.Validation
	c.Name, c.Phone = strings.TrimSpace(c.Name), strings.TrimSpace(c.Phone)
	c.Address = strings.TrimSpace(strings.ReplaceAll(c.Address, "\r\n", "\n"))
	if c.Name == "" {
		v.Add("name", "validation.required")
	}
	for field, s := range map[string]string{"name": c.Name, "address": c.Address, "phone": c.Phone} {
		if utf8.RuneCountInString(s) > 300 {
			v.Add(field, "validation.too_long")
		}
	}
	return v.Err()
}
