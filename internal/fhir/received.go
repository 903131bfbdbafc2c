package fhir

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"emr/internal/patient"
	"emr/internal/settings"
)

// What a Patient from another system carries beside the register's fields is kept
// (patient.Received) and given back as it came: its identifiers of other systems, every name
// (the official one is the register's name), every contact point (the first phone and e-mail
// are the register's), every address (the first one's text is the register's), the languages
// and the profiles claimed. Where the clinic changed its own field since (in the web app), the
// clinic's value is given in that element's place.

// ownSystems are the systems naming the clinic's own patient numbers: the one in use, the one
// under its public address (before an administrator set another) and LegacyNumberSystem,
// which integrations that began before either kept.
func (h *Handler) ownSystems(ctx context.Context) []string {
	c := h.clinicSettings(ctx)
	own := []string{c.PatientNumberSystem(), settings.LegacyNumberSystem}
	if c.PublicURL != "" {
		own = append(own, strings.TrimRight(c.PublicURL, "/")+settings.NumberSystemPath)
	}
	return own
}

// foreignIdentifiers reads a written Patient's identifiers: one of the clinic's own systems
// must be the patient's number (mrn; "" on a create, where none may be sent: the clinic
// assigns its numbers) and is not kept twice; the others are kept.
func foreignIdentifiers(ids []Identifier, own []string, mrn string) ([]patient.Identifier, error) {
	var out []patient.Identifier
	for _, id := range ids {
		if slices.Contains(own, id.System) {
			if mrn == "" || id.Value != mrn {
				return nil, invalid("fhir.identifier_assigned", "Patient.identifier", own[0])
			}
			continue
		}
		if strings.TrimSpace(id.Value) == "" {
			return nil, invalid("fhir.identifier_value", "Patient.identifier.value")
		}
		k := patient.Identifier{System: id.System, Value: id.Value, Use: id.Use}
		if id.Type != nil {
			k.Type = &patient.Concept{Text: id.Type.Text}
			for _, c := range id.Type.Coding {
				k.Type.Coding = append(k.Type.Coding, patient.Coding(c))
			}
		}
		if id.Period != nil {
			k.PeriodStart, k.PeriodEnd = id.Period.Start, id.Period.End
		}
		out = append(out, k)
	}
	return out, nil
}

// receivedOf is what a written Patient carries beside the register's fields.
func receivedOf(p Patient, identifiers []patient.Identifier) *patient.Received {
	r := &patient.Received{Identifiers: identifiers, Elements: map[string]json.RawMessage{}}
	keep := func(name string, v any) {
		data, _ := json.Marshal(v)
		r.Elements[name] = data
	}
	if len(p.Name) > 0 {
		keep("name", p.Name)
	}
	if len(p.Telecom) > 0 {
		keep("telecom", p.Telecom)
	}
	if len(p.Address) > 0 {
		keep("address", p.Address)
	}
	if len(p.Communication) > 0 {
		keep("communication", p.Communication)
	}
	if p.Meta != nil && len(p.Meta.Profile) > 0 {
		keep("profile", p.Meta.Profile)
	}
	if len(r.Elements) == 0 {
		r.Elements = nil
	}
	return r
}

// officialName is which of names is the register's: the first official one, else the
// first usual one or one of no use, else the first.
func officialName(names []HumanName) int {
	for _, use := range [][]string{{"official"}, {"usual", ""}} {
		for i, n := range names {
			if slices.Contains(use, n.Use) {
				return i
			}
		}
	}
	return 0
}

// splitGiven is the register's first and middle names of given names.
func splitGiven(given []string) (first, middle string) {
	if len(given) == 0 {
		return "", ""
	}
	return given[0], strings.Join(given[1:], " ")
}

// addressText is an address as the one line of text the register keeps.
func addressText(a Address) string {
	if a.Text != "" {
		return a.Text
	}
	var parts []string
	for _, s := range append(slices.Clone(a.Line), a.City, a.District, a.State, a.PostalCode, a.Country) {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// withReceived gives out (the register's Patient) what was received with p, in place of the
// register's own elements where those are still what came.
func withReceived(out *Patient, p patient.Patient) {
	r := p.Received
	for _, k := range r.Identifiers {
		id := Identifier{Use: k.Use, System: k.System, Value: k.Value}
		if k.Type != nil {
			id.Type = &CodeableConcept{Text: k.Type.Text}
			for _, c := range k.Type.Coding {
				id.Type.Coding = append(id.Type.Coding, Coding(c))
			}
		}
		if k.PeriodStart != "" || k.PeriodEnd != "" {
			id.Period = &Period{Start: k.PeriodStart, End: k.PeriodEnd}
		}
		out.Identifier = append(out.Identifier, id)
	}
	var names []HumanName
	if json.Unmarshal(r.Elements["name"], &names) == nil && len(names) > 0 {
		n := &names[officialName(names)]
		if first, middle := splitGiven(n.Given); n.Family != p.LastName || first != p.FirstName || middle != p.MiddleName {
			n.Family, n.Given, n.Text = p.LastName, out.Name[0].Given, ""
		}
		out.Name = names
	}
	var telecom []ContactPoint
	if json.Unmarshal(r.Elements["telecom"], &telecom) == nil {
		out.Telecom = keptTelecom(telecom, p.Phone, p.Email)
	}
	var addresses []Address
	if json.Unmarshal(r.Elements["address"], &addresses) == nil && len(addresses) > 0 {
		switch first := addresses[0]; {
		case p.Address == "":
			addresses = addresses[1:]
		case addressText(first) != p.Address:
			addresses[0] = Address{Use: first.Use, Type: first.Type, Text: p.Address}
		}
		out.Address = addresses
	}
	var languages []Communication
	if json.Unmarshal(r.Elements["communication"], &languages) == nil {
		out.Communication = languages
	}
	// The profiles it was sent with, but US Core's: whether the record meets those is the
	// server's own claim, made on what it keeps (profiles.go), never the sender's word.
	var profiles []string
	if json.Unmarshal(r.Elements["profile"], &profiles) == nil && out.Meta != nil {
		for _, p := range profiles {
			if !strings.HasPrefix(p, usCoreBase) {
				out.Meta.Profile = append(out.Meta.Profile, p)
			}
		}
	}
}

// keptTelecom is the contact points received, the first phone and e-mail being the
// register's (gone when the register has none now, added when it has one they lacked).
func keptTelecom(kept []ContactPoint, phone, email string) []ContactPoint {
	native := map[string]string{"phone": phone, "email": email}
	seen := map[string]bool{}
	var out []ContactPoint
	for _, c := range kept {
		if v, ours := native[c.System]; ours && !seen[c.System] {
			seen[c.System] = true
			if v == "" {
				continue
			}
			c.Value = v
		}
		out = append(out, c)
	}
	for _, system := range []string{"phone", "email"} {
		if !seen[system] && native[system] != "" {
			out = append(out, ContactPoint{System: system, Value: native[system]})
		}
	}
	return out
}
