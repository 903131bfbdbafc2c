package fhir

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// The FHIR R4 data types the API writes, by hand: only the elements it fills, each as the
// specification names and shapes it (ADR 35). A resource is valid against the official R4
// JSON schema; the tests check every one the API answers.

// Resource is what every resource answered has: its type, id and version.
type Resource interface {
	ResourceKind() string
	ResourceID() string
	VersionID() string
}

// Meta is a resource's version, when it changed, and the profiles it conforms to.
type Meta struct {
	VersionID   string `json:"versionId,omitempty"`
	LastUpdated string `json:"lastUpdated,omitempty"`
	// Profile lists the profiles the resource claims (a Patient keeps those it was sent with).
	Profile []string `json:"profile,omitempty"`
	// Tag is SUBSETTED on a resource answered in part (a large Group's members).
	Tag []Coding `json:"tag,omitempty"`
}

// base is the elements every resource starts with.
type base struct {
	ResourceType string `json:"resourceType"`
	ID           string `json:"id,omitempty"`
	Meta         *Meta  `json:"meta,omitempty"`
}

func (b base) ResourceKind() string { return b.ResourceType }
func (b base) metaOf() *Meta        { return b.Meta }
func (b base) ResourceID() string   { return b.ID }
func (b base) VersionID() string {
	if b.Meta == nil {
		return ""
	}
	return b.Meta.VersionID
}

func newBase(kind, id string, version int, updated time.Time) base {
	return base{ResourceType: kind, ID: id, Meta: &Meta{VersionID: strconv.Itoa(max(version, 1)), LastUpdated: instant(updated)}}
}

// instant writes a time as FHIR's instant: UTC, to the millisecond at most.
func instant(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// Coding is a code from a code system.
type Coding struct {
	System  string `json:"system,omitempty"`
	Code    string `json:"code,omitempty"`
	Display string `json:"display,omitempty"`
}

// CodeableConcept is codings and, or, a text.
type CodeableConcept struct {
	Coding []Coding `json:"coding,omitempty"`
	Text   string   `json:"text,omitempty"`
}

func concept(system, code, display string) *CodeableConcept {
	return &CodeableConcept{Coding: []Coding{{System: system, Code: code, Display: display}}}
}

// Reference points at another resource.
type Reference struct {
	Reference string `json:"reference,omitempty"`
	Display   string `json:"display,omitempty"`
}

func ref(kind string, id int64) *Reference {
	return &Reference{Reference: kind + "/" + strconv.FormatInt(id, 10)}
}

// Identifier is a business identifier (the patient number).
type Identifier struct {
	Use    string           `json:"use,omitempty"`
	Type   *CodeableConcept `json:"type,omitempty"`
	System string           `json:"system,omitempty"`
	Value  string           `json:"value,omitempty"`
	Period *Period          `json:"period,omitempty"`
}

// HumanName is a person's name.
type HumanName struct {
	Use    string   `json:"use,omitempty"`
	Text   string   `json:"text,omitempty"`
	Family string   `json:"family,omitempty"`
	Given  []string `json:"given,omitempty"`
	Prefix []string `json:"prefix,omitempty"`
	Suffix []string `json:"suffix,omitempty"`
	Period *Period  `json:"period,omitempty"`
}

// ContactPoint is a phone number or an e-mail address.
type ContactPoint struct {
	System string  `json:"system,omitempty"`
	Value  string  `json:"value,omitempty"`
	Use    string  `json:"use,omitempty"`
	Rank   int     `json:"rank,omitempty"`
	Period *Period `json:"period,omitempty"`
}

// Address is a postal address: the clinic keeps its text, and the parts another system
// sent.
type Address struct {
	Use        string   `json:"use,omitempty"`
	Type       string   `json:"type,omitempty"`
	Text       string   `json:"text,omitempty"`
	Line       []string `json:"line,omitempty"`
	City       string   `json:"city,omitempty"`
	District   string   `json:"district,omitempty"`
	State      string   `json:"state,omitempty"`
	PostalCode string   `json:"postalCode,omitempty"`
	Country    string   `json:"country,omitempty"`
	Period     *Period  `json:"period,omitempty"`
}

// Period is a time range.
type Period struct {
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
}

// Quantity is a measured amount with its UCUM unit.
type Quantity struct {
	Value float64 `json:"value"`
	// Comparator of a censored value: <, <=, >=, > (the value is the limit).
	Comparator string `json:"comparator,omitempty"`
	Unit       string `json:"unit,omitempty"`
	System     string `json:"system,omitempty"`
	Code       string `json:"code,omitempty"`
	// Decimal is the value as the laboratory reported it ("5.0", "0.10"): written for Value
	// so that the precision reported stays (a JSON number keeps its trailing zeros). Never
	// read from a request.
	Decimal string `json:"-"`
}

// MarshalJSON writes the quantity with its value as reported when it has one.
func (q Quantity) MarshalJSON() ([]byte, error) {
	type plain Quantity
	value := json.Number(strconv.FormatFloat(q.Value, 'f', -1, 64))
	if q.Decimal != "" && decimalText(q.Decimal) {
		value = json.Number(q.Decimal)
	}
	return json.Marshal(struct {
		Value json.Number `json:"value"`
		plain
	}{value, plain(q)})
}

// decimalText reports whether s is a plain decimal, as JSON writes a number: digits with
// an optional sign and point, no exponent.
func decimalText(s string) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, point := strings.Cut(s, ".")
	digits := func(t string) bool {
		return t != "" && strings.Trim(t, "0123456789") == ""
	}
	return digits(whole) && (whole == "0" || whole[0] != '0') && (!point || digits(frac))
}

// Extension is an extension with a boolean value (a birth date's estimate) or a reference
// (an OperationOutcome's possible duplicate): the kinds written.
type Extension struct {
	URL            string     `json:"url"`
	ValueBoolean   *bool      `json:"valueBoolean,omitempty"`
	ValueReference *Reference `json:"valueReference,omitempty"`
}

// Issue is one problem an OperationOutcome reports.
type Issue struct {
	Extension   []Extension `json:"extension,omitempty"`
	Severity    string      `json:"severity"`
	Code        string      `json:"code"`
	Diagnostics string      `json:"diagnostics,omitempty"`
	Expression  []string    `json:"expression,omitempty"`
}

// OperationOutcome answers every error.
type OperationOutcome struct {
	base
	Issue []Issue `json:"issue"`
}

// Bundle is a search's page, a history or a batch's answer.
type Bundle struct {
	base
	BundleType string        `json:"type"`
	Timestamp  string        `json:"timestamp,omitempty"`
	Total      *int          `json:"total,omitempty"`
	Link       []BundleLink  `json:"link,omitempty"`
	Entry      []BundleEntry `json:"entry,omitempty"`
}

// BundleLink is a bundle's self, next or previous link.
type BundleLink struct {
	Relation string `json:"relation"`
	URL      string `json:"url"`
}

// BundleEntry is one resource of a bundle.
type BundleEntry struct {
	FullURL  string         `json:"fullUrl,omitempty"`
	Resource Resource       `json:"resource,omitempty"`
	Search   *EntrySearch   `json:"search,omitempty"`
	Request  *EntryRequest  `json:"request,omitempty"`
	Response *EntryResponse `json:"response,omitempty"`
}

// EntryRequest is the interaction an entry of a history, batch or transaction stands for.
type EntryRequest struct {
	Method      string `json:"method"`
	URL         string `json:"url"`
	IfMatch     string `json:"ifMatch,omitempty"`
	IfNoneExist string `json:"ifNoneExist,omitempty"`
}

// EntryResponse is the outcome of an entry of a batch, a transaction or a history.
type EntryResponse struct {
	Status       string            `json:"status"`
	Location     string            `json:"location,omitempty"`
	Etag         string            `json:"etag,omitempty"`
	LastModified string            `json:"lastModified,omitempty"`
	Outcome      *OperationOutcome `json:"outcome,omitempty"`
}

// EntrySearch says why an entry is in a searchset.
type EntrySearch struct {
	Mode string `json:"mode"`
}

// Annotation is a note.
type Annotation struct {
	Text string `json:"text"`
}

// SimpleQuantity is a quantity without a comparator.
type SimpleQuantity struct {
	Value  float64 `json:"value"`
	Unit   string  `json:"unit,omitempty"`
	System string  `json:"system,omitempty"`
	Code   string  `json:"code,omitempty"`
}
