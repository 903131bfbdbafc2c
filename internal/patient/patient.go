// Package patient keeps the clinic's patient register: identity, contact, medical history,
// photo and attachments. Patients are archived with a reason, never deleted.
package patient

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/i18n"
)

// Allowed values of the list fields.
var (
	Sexes          = []string{"male", "female", "other", "unknown"}
	CivilStatuses  = []string{"", "single", "married", "widowed", "separated", "divorced", "other"}
	BloodTypes     = []string{"", "A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"}
	Severities     = []string{"", "mild", "moderate", "severe"}
	Chronic        = []string{"asthma", "hypertension", "diabetes", "copd", "tuberculosis", "seizures"}
	FamilyHistory  = []string{"hypertension", "diabetes", "stroke", "coronary"}
	SocialStatuses = []string{"", "never", "former", "current"}
)

// Allergy is one known allergy.
type Allergy struct {
	Substance string `json:"substance"`
	Reaction  string `json:"reaction"`
	Severity  string `json:"severity"`
	// Key stays with the allergy across the record's saves (set by the store; zero: written
	// before keys were, its place in the list is its key): its AllergyIntolerance's id says it.
	Key int `json:"key,omitempty"`
}

// What is known of a patient's allergies: an empty list alone says nothing, since the
// patient may never have been asked. "No known allergies" is a fact someone recorded.
const (
	AllergiesNotAsked = "unknown" // nobody has recorded it yet
	AllergiesNone     = "none"    // no known allergies (NKA), recorded by someone at a time
	AllergiesListed   = "present" // the allergies are listed
)

// AllergyStatuses are the values a client may send.
var AllergyStatuses = []string{"", AllergiesNotAsked, AllergiesNone, AllergiesListed}

// History is the patient's medical history.
type History struct {
	Allergies []Allergy `json:"allergies"`
	// AllergyStatus is one of the Allergies* values; who recorded it and when are set by
	// the server (what a client sends there is ignored).
	AllergyStatus     string     `json:"allergy_status"`
	AllergyRecordedBy string     `json:"allergy_recorded_by,omitempty"`
	AllergyRecordedAt *time.Time `json:"allergy_recorded_at,omitempty"`
	// AllergySeq is the highest key given to an allergy of the record (set by the store), so a
	// key taken away is never given again.
	AllergySeq     int      `json:"allergy_seq,omitempty"`
	PastAdmissions string   `json:"past_admissions"`
	PastSurgeries  string   `json:"past_surgeries"`
	Chronic        []string `json:"chronic"`
	ChronicOther   string   `json:"chronic_other"`
	Family         []string `json:"family"`
	FamilyOther    string   `json:"family_other"`
	Smoking        string   `json:"smoking"`
	Alcohol        string   `json:"alcohol"`
	SocialOther    string   `json:"social_other"`
	Vaccinations   string   `json:"vaccinations"`
}

// Known returns the history with its allergy status as recorded, or, for a record from
// before the status existed, as its list says (listed allergies, else not asked); its lists
// are never null.
func (h History) Known() History {
	if h.Allergies == nil {
		h.Allergies = []Allergy{}
	}
	// Lists are lists, empty or not (a record written without them still reads as such).
	if h.Chronic == nil {
		h.Chronic = []string{}
	}
	if h.Family == nil {
		h.Family = []string{}
	}
	if h.AllergyStatus == "" {
		h.AllergyStatus = AllergiesNotAsked
		if len(h.Allergies) > 0 {
			h.AllergyStatus = AllergiesListed
		}
	}
	return h
}

// stampAllergies keys the listed allergies (one listed before keeps its key: the one it
// carries, else that of the same substance) and records who stated the allergy status and
// when: kept from old when nothing about allergies changed, else e's user now; nobody for
// "not asked".
func (h *History) stampAllergies(old History, by string, now time.Time) {
	old = old.Known()
	keys, seq := Keys(old.Allergies, h.Allergies, func(a Allergy) int { return a.Key }, old.AllergySeq,
		func(was, is Allergy) bool {
			return was == Allergy{Substance: is.Substance, Reaction: is.Reaction, Severity: is.Severity, Key: was.Key}
		},
		func(was, is Allergy) bool {
			return strings.EqualFold(strings.TrimSpace(was.Substance), strings.TrimSpace(is.Substance))
		})
	h.Allergies, h.AllergySeq = slices.Clone(h.Allergies), seq
	for i := range h.Allergies {
		h.Allergies[i].Key = keys[i]
	}
	switch {
	case h.AllergyStatus == AllergiesNotAsked:
		h.AllergyRecordedBy, h.AllergyRecordedAt = "", nil
	case old.AllergyStatus == h.AllergyStatus && slices.Equal(old.unkeyed().Allergies, h.unkeyed().Allergies) && old.AllergyRecordedAt != nil:
		h.AllergyRecordedBy, h.AllergyRecordedAt = old.AllergyRecordedBy, old.AllergyRecordedAt
	default:
		at := now.UTC()
		h.AllergyRecordedBy, h.AllergyRecordedAt = by, &at
	}
}

// unkeyed is h without its allergies' keys (what the record says of them).
func (h History) unkeyed() History {
	h.Allergies, h.AllergySeq = slices.Clone(h.Allergies), 0
	for i := range h.Allergies {
		h.Allergies[i].Key = 0
	}
	return h
}

// How a patient may choose to hear of their appointments, and in which language.
var (
	ReminderChannels = []string{"email", "sms", "none"}
	Languages        = []string{"", "en", "ru", "zh", "vi"}
)

// DefaultReminders is the channel the patient's contact allows: e-mail when there is an
// address, else SMS when there is a phone, else none.
func DefaultReminders(phone, email string) string {
	switch {
	case strings.TrimSpace(email) != "":
		return "email"
	case strings.TrimSpace(phone) != "":
		return "sms"
	}
	return "none"
}

// reminderFits reports whether the contact holds what channel needs.
func reminderFits(channel, phone, email string) bool {
	switch channel {
	case "email":
		return email != ""
	case "sms":
		return phone != ""
	}
	return true
}

// Contact is the emergency contact or caregiver.
type Contact struct {
	Name     string `json:"name"`
	Relation string `json:"relation"`
	Phone    string `json:"phone"`
}

// Input is what a client may write; anything else in a request is ignored.
type Input struct {
	FirstName          string  `json:"first_name"`
	MiddleName         string  `json:"middle_name"`
	LastName           string  `json:"last_name"`
	Sex                string  `json:"sex"`
	BirthDate          string  `json:"birth_date"`
	BirthDateEstimated bool    `json:"birth_date_estimated"`
	CivilStatus        string  `json:"civil_status"`
	Phone              string  `json:"phone"`
	Email              string  `json:"email"`
	Address            string  `json:"address"`
	Occupation         string  `json:"occupation"`
	ReferredBy         string  `json:"referred_by"`
	BloodType          string  `json:"blood_type"`
	Remarks            string  `json:"remarks"`
	History            History `json:"history"`
	EmergencyContact   Contact `json:"emergency_contact"`
	// Reminders is how the patient hears of their appointments: "email", "sms" or "none"
	// (ReminderChannels); "" when written takes what the contact allows (DefaultReminders),
	// or, on an update, keeps what was chosen.
	Reminders string `json:"reminders"`
	// MessageLanguage is the language of the patient's messages (Languages); "" the clinic's.
	MessageLanguage string `json:"message_language"`
	// GestationWeeks is the gestational age at birth in completed weeks (MinGestationWeeks to
	// MaxGestationWeeks), nil when not recorded: growth is scored at the corrected age of a
	// child born before 37 weeks.
	GestationWeeks *int `json:"gestation_weeks"`
	// Received, when set, replaces what is kept of another system's record (the FHIR API
	// sets it); nil keeps it as it is, so that the web app's edits leave it alone.
	Received *Received `json:"-"`
}

// Patient is a stored patient.
type Patient struct {
	ID  int64  `json:"id"`
	MRN string `json:"mrn"`
	Input
	HasPhoto      bool       `json:"has_photo"`
	Archived      bool       `json:"archived"`
	ArchivedAt    *time.Time `json:"archived_at,omitempty"`
	ArchiveReason string     `json:"archive_reason,omitempty"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	Version       int        `json:"version"`
	// Received is what other systems sent beside the register's fields (Input.Received).
	Received Received `json:"received"`
}

// Summary is a patient as lists and duplicate checks show them.
type Summary struct {
	ID         int64  `json:"id"`
	MRN        string `json:"mrn"`
	FirstName  string `json:"first_name"`
	MiddleName string `json:"middle_name"`
	LastName   string `json:"last_name"`
	Sex        string `json:"sex"`
	BirthDate  string `json:"birth_date"`
	Phone      string `json:"phone"`
	Archived   bool   `json:"archived"`
	HasPhoto   bool   `json:"has_photo"`
}

// NameIn is the patient's name as one line, in the order lang writes names.
func (s Summary) NameIn(lang string) string {
	return i18n.PersonName(lang, s.FirstName, s.MiddleName, s.LastName)
}

var phonePattern = regexp.MustCompile(`^[0-9+()\-. ]*$`)

// MaxAge is how many years back a birth date may lie.
const MaxAge = 130

// The gestational ages at birth a record may hold, in completed weeks.
const (
	MinGestationWeeks = 22
	MaxGestationWeeks = 44
)

type checker struct{ v apperr.Validation }

func (c *checker) text(field, value string, max int, required bool) {
	switch {
	case required && strings.TrimSpace(value) == "":
		c.v.Add(field, "validation.required")
	case utf8.RuneCountInString(value) > max:
		c.v.Add(field, "validation.too_long")
	}
}

func (c *checker) choice(field, value string, allowed []string) {
	if !slices.Contains(allowed, value) {
		c.v.Add(field, "validation.invalid_choice")
	}
}

func (c *checker) phone(field, value string) {
	c.text(field, value, 30, false)
	if !phonePattern.MatchString(value) {
		c.v.Add(field, "validation.phone")
	}
}

// Clean trims the text fields and checks every rule; today is the clinic's current date.
func (in *Input) Clean(today time.Time) error {
	for _, s := range []*string{&in.FirstName, &in.MiddleName, &in.LastName, &in.Sex, &in.BirthDate, &in.CivilStatus,
		&in.Phone, &in.Email, &in.Address, &in.Occupation, &in.ReferredBy, &in.BloodType, &in.Remarks,
		&in.EmergencyContact.Name, &in.EmergencyContact.Relation, &in.EmergencyContact.Phone} {
		*s = strings.TrimSpace(*s)
	}
	var c checker
	c.text("first_name", in.FirstName, 100, true)
	c.text("middle_name", in.MiddleName, 100, false)
	c.text("last_name", in.LastName, 100, true)
	for _, f := range []struct{ field, value string }{{"first_name", in.FirstName}, {"middle_name", in.MiddleName}, {"last_name", in.LastName}} {
		// A name is one line: a line break in it would add lines to a message it is written into.
		if strings.IndexFunc(f.value, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) >= 0 {
			c.v.Add(f.field, "validation.one_line")
		}
	}
	if in.Sex == "" {
		c.v.Add("sex", "validation.required")
	} else {
		c.choice("sex", in.Sex, Sexes)
	}
	if in.BirthDate == "" {
		c.v.Add("birth_date", "validation.required")
	} else if d, err := time.Parse(time.DateOnly, in.BirthDate); err != nil {
		c.v.Add("birth_date", "validation.date_format")
	} else if d.After(today) {
		c.v.Add("birth_date", "validation.date_future")
	} else if d.Before(today.AddDate(-MaxAge, 0, 0)) {
		c.v.Add("birth_date", "validation.date_too_old")
	}
	if g := in.GestationWeeks; g != nil && (*g < MinGestationWeeks || *g > MaxGestationWeeks) {
		c.v.Add("gestation_weeks", "patient.gestation_weeks")
	}
	c.choice("civil_status", in.CivilStatus, CivilStatuses)
	c.phone("phone", in.Phone)
	if in.Email != "" && !apperr.Email(in.Email) {
		c.v.Add("email", "validation.email")
	}
	in.Reminders, in.MessageLanguage = strings.TrimSpace(in.Reminders), strings.TrimSpace(in.MessageLanguage)
	if in.Reminders != "" {
		c.choice("reminders", in.Reminders, ReminderChannels)
		switch {
		case in.Reminders == "sms" && in.Phone == "":
			c.v.Add("reminders", "patient.sms_needs_phone")
		case in.Reminders == "email" && in.Email == "":
			c.v.Add("reminders", "patient.email_needs_address")
		}
	}
	c.choice("message_language", in.MessageLanguage, Languages)
	c.text("address", in.Address, 300, false)
	c.text("occupation", in.Occupation, 100, false)
	c.text("referred_by", in.ReferredBy, 100, false)
	c.choice("blood_type", in.BloodType, BloodTypes)
	if in.Received != nil {
		in.Received.clean(&c.v)
	}
	c.text("remarks", in.Remarks, 2000, false)

	h := &in.History
	if len(h.Allergies) > 50 {
		c.v.Add("history.allergies", "validation.too_many")
	}
	for i := range h.Allergies {
		a := &h.Allergies[i]
		a.Substance, a.Reaction = strings.TrimSpace(a.Substance), strings.TrimSpace(a.Reaction)
		c.text(fmt.Sprintf("history.allergies.%d.substance", i), a.Substance, 100, true)
		c.text(fmt.Sprintf("history.allergies.%d.reaction", i), a.Reaction, 200, false)
		c.choice(fmt.Sprintf("history.allergies.%d.severity", i), a.Severity, Severities)
	}
	c.choice("history.allergy_status", h.AllergyStatus, AllergyStatuses)
	switch {
	case len(h.Allergies) > 0 && h.AllergyStatus == AllergiesNone:
		c.v.Add("history.allergy_status", "patient.allergies_listed_and_none")
	case len(h.Allergies) == 0 && h.AllergyStatus == AllergiesListed:
		c.v.Add("history.allergy_status", "patient.allergies_missing")
	case len(h.Allergies) > 0:
		h.AllergyStatus = AllergiesListed
	case h.AllergyStatus == "":
		h.AllergyStatus = AllergiesNotAsked
	}
	h.AllergyRecordedBy, h.AllergyRecordedAt = "", nil
	for _, v := range h.Chronic {
		c.choice("history.chronic", v, Chronic)
	}
	for _, v := range h.Family {
		c.choice("history.family", v, FamilyHistory)
	}
	c.choice("history.smoking", h.Smoking, SocialStatuses)
	c.choice("history.alcohol", h.Alcohol, SocialStatuses)
	for field, v := range map[string]string{"history.past_admissions": h.PastAdmissions, "history.past_surgeries": h.PastSurgeries,
		"history.chronic_other": h.ChronicOther, "history.family_other": h.FamilyOther, "history.social_other": h.SocialOther,
		"history.vaccinations": h.Vaccinations} {
		c.text(field, v, 2000, false)
	}
	c.text("emergency_contact.name", in.EmergencyContact.Name, 100, false)
	c.text("emergency_contact.relation", in.EmergencyContact.Relation, 50, false)
	c.phone("emergency_contact.phone", in.EmergencyContact.Phone)
	if h.Allergies == nil {
		h.Allergies = []Allergy{}
	}
	if h.Chronic == nil {
		h.Chronic = []string{}
	}
	if h.Family == nil {
		h.Family = []string{}
	}
	return c.v.Err()
}
