package portal

import (
	"context"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/document"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/release"
)

// The ages of the guardian rules (ADR 44). There is no clinic setting for the portal to keep
// them in, so they are the law's usual ages, here.
const (
	// AdolescentAge: from this birthday a child's record, opened in the portal, leaves out what
	// an adolescent is given in person (AdolescentHidden).
	AdolescentAge = 12
	// MajorityAge: a guardian link opens a child's record until this birthday, at sign-in and
	// in a session already open.
	MajorityAge = 18
)

// yearsOld is how many whole years old someone born on birth (YYYY-MM-DD) is on today's date;
// false when the birth date cannot be read.
func yearsOld(birth string, today time.Time) (int, bool) {
	b, err := time.Parse(time.DateOnly, birth)
	if err != nil {
		return 0, false
	}
	years := today.Year() - b.Year()
	if today.Month() < b.Month() || (today.Month() == b.Month() && today.Day() < b.Day()) {
		years--
	}
	return years, true
}

// today is the clinic's calendar day now.
func (s *Store) today() time.Time {
	return s.now().In(s.loc())
}

// ages reads how old the patients ids are today; a birth date that cannot be read is absent.
func (s *Store) ages(ctx context.Context, q database.Querier, ids []int64) (map[int64]int, error) {
	refs, err := patient.Summaries(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	today := s.today()
	out := make(map[int64]int, len(refs))
	for id, ref := range refs {
		if age, ok := yearsOld(ref.BirthDate, today); ok {
			out[id] = age
		}
	}
	return out, nil
}

// minors keeps, of records (read in q), those a guardian link may still open: a record opened as the
// session's own is kept; a child's only while the child is younger than MajorityAge (a child
// whose age cannot be told is not opened: the link fails closed).
func (s *Store) minors(ctx context.Context, q database.Querier, records []auth.PortalRecord) ([]auth.PortalRecord, error) {
	var children []int64
	for _, r := range records {
		if r.GuardianID != 0 {
			children = append(children, r.PatientID)
		}
	}
	if len(children) == 0 {
		return records, nil
	}
	ages, err := s.ages(ctx, q, children)
	if err != nil {
		return nil, err
	}
	out := records[:0:0]
	for _, r := range records {
		if age, ok := ages[r.PatientID]; r.GuardianID == 0 || (ok && age < MajorityAge) {
			out = append(out, r)
		}
	}
	return out, nil
}

// adolescent says whether record id is read in the adolescent's view: its patient is
// AdolescentAge or older and not yet MajorityAge (a birth date that cannot be read counts as
// such). The portal cannot tell who holds a minor's phone, e-mail or printed access code —
// a child's record often carries a parent's — so the view is the same for every session that
// opens the record, a guardian's or not (ADR 44).
func (s *Store) adolescent(ctx context.Context, id int64) (bool, error) {
	ages, err := s.ages(ctx, s.DB, []int64{id})
	if err != nil {
		return false, err
	}
	age, ok := ages[id]
	return !ok || (age >= AdolescentAge && age < MajorityAge), nil
}

// adolescentDocuments are the kinds of document an adolescent's view leaves out: the visit
// summary (the whole visit), and those that name the tests done or their values (a results
// report, a laboratory or imaging request) or whose content is the clinic's own (custom).
var adolescentDocuments = map[string]bool{"visit_summary": true, "results_report": true, "lab_request": true, "imaging_request": true, "custom": true}

// AdolescentHidden says whether an adolescent's view leaves item out: a result of sexual
// health or pregnancy (release.Sensitivity), the documents of adolescentDocuments and any
// that names such care (a certificate printing a Z30.0 diagnosis), every
// prescription (a medicine names the care: contraception, emergency contraception, a
// treatment of an infection; it is given in person), and a held item whatever it is: its
// title alone may say what it is (ADR 44).
func AdolescentHidden(it release.Item) bool {
	if it.Held {
		return true
	}
	switch it.Kind {
	case release.KindResult:
		return it.Sensitive == release.SexualHealth || it.Sensitive == release.Pregnancy
	case release.KindDocument:
		return adolescentDocuments[it.DocumentKind] || it.Sensitive == release.SexualHealth || it.Sensitive == release.Pregnancy
	case release.KindPrescription:
		return true
	}
	return false
}

// Released is what a record's patient may see of their results and documents (ADR 45).
// Limited: the record is read in the adolescent's view (some results and documents are given
// in person and not shown), said whether or not anything was left out.
type Released struct {
	Items   []release.Item `json:"items"`
	Limited bool           `json:"limited"`
}

// ReleasedOf lists what record id's patient may see, in lang, newest first; audited
// (release.view) with the patient as actor.
func (s *Store) ReleasedOf(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id int64, lang string) (Released, error) {
	r, err := record(p, id)
	if err != nil {
		return Released{}, err
	}
	limited, err := s.adolescent(ctx, id)
	if err != nil {
		return Released{}, err
	}
	items, err := s.Release.Released(ctx, s.actor(e, p, r), id, lang)
	if err != nil {
		return Released{}, err
	}
	out := Released{Items: []release.Item{}, Limited: limited}
	for _, it := range items {
		if !limited || !AdolescentHidden(it) {
			out.Items = append(out.Items, it)
		}
	}
	return out, nil
}

// Line is a prescription's line as it was printed.
type Line struct {
	Medicine     string `json:"medicine"`
	Dose         string `json:"dose"`
	Route        string `json:"route"` // in the reader's language
	Frequency    string `json:"frequency"`
	Duration     string `json:"duration"`
	Quantity     string `json:"quantity"`
	Unit         string `json:"unit"`
	Refills      int    `json:"refills"`
	Instructions string `json:"instructions"`
}

// Sheet is a prescription as it was printed: its number, day, lines, notes, diagnoses and
// prescriber. What the print leaves out (a line's override reason, the safety findings, the
// staff's names and links) is not here either.
type Sheet struct {
	Number          int64      `json:"number"`
	IssuedAt        *time.Time `json:"issued_at"`
	Lines           []Line     `json:"lines"`
	Notes           string     `json:"notes"`
	Diagnoses       []string   `json:"diagnoses"`
	Prescriber      string     `json:"prescriber"`
	Specialisations []string   `json:"specialisations"`
	Licences        []string   `json:"licences"`
}

// Opened is one released item as it was printed: a document's kept blocks, a prescription's
// sheet, or a result's values (in the item).
type Opened struct {
	release.Item
	Content []document.Block `json:"content,omitempty"`
	// Language is a document's, the language its blocks are written in (the page's may differ).
	Language     string `json:"language,omitempty"`
	Prescription *Sheet `json:"prescription,omitempty"`
}

// kinds of item the portal opens, as its path names them.
var kinds = map[string]bool{release.KindResult: true, release.KindDocument: true, release.KindPrescription: true}

// OpenReleased gives record id's item kind/item as printed, when its patient may see it now
// (else portal.not_found / release.not_found, 404). The opening is recorded with the patient
// (or the guardian) as actor and audited (release.open). In the adolescent's view an item it
// leaves out is not found, and nothing is recorded of it.
func (s *Store) OpenReleased(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id int64, kind string, item int64, lang string) (Opened, error) {
	r, err := record(p, id)
	if err != nil {
		return Opened{}, err
	}
	if !kinds[kind] || item <= 0 {
		return Opened{}, apperr.NotFound("release.not_found")
	}
	limited, err := s.adolescent(ctx, id)
	if err != nil {
		return Opened{}, err
	}
	var hide func(release.Item) bool
	if limited {
		hide = AdolescentHidden // judged as the page's list judges it, before anything is recorded
	}
	actor := "patient:" + strconv.FormatInt(id, 10)
	if r.Guardian != "" {
		actor = r.Guardian
	}
	printed, err := s.Release.Open(ctx, s.actor(e, p, r), id, kind, item, actor, lang, hide)
	if err != nil {
		return Opened{}, err
	}
	out := Opened{Item: printed.Item, Content: printed.Content, Language: printed.Language}
	if rx := printed.Prescription; rx != nil {
		sh := &Sheet{Number: rx.ID, IssuedAt: rx.IssuedAt, Lines: []Line{}, Notes: rx.Notes, Diagnoses: []string{}, Specialisations: []string{}, Licences: []string{}}
		for _, it := range rx.Items {
			l := Line{Medicine: it.Medicine, Dose: it.Dose, Frequency: it.Frequency, Duration: it.Duration, Unit: it.Unit, Refills: it.Refills, Instructions: it.Instructions}
			if l.Route = i18n.T(lang, "document.value.route."+it.Route); it.Route == "" || l.Route == "document.value.route."+it.Route {
				l.Route = it.Route // none, or a route with no name (written as given)
			}
			if it.Quantity != nil {
				l.Quantity = string(*it.Quantity)
			}
			sh.Lines = append(sh.Lines, l)
		}
		for _, d := range rx.Diagnoses {
			text := strings.TrimSpace(d.Code + " " + d.Label)
			if d.Code == "" {
				text = d.Text
			}
			sh.Diagnoses = append(sh.Diagnoses, text)
		}
		if pr := rx.Prescriber; pr != nil {
			sh.Prescriber = pr.Name
			sh.Specialisations = append(sh.Specialisations, pr.Specialisations...)
			for _, l := range pr.Licences {
				sh.Licences = append(sh.Licences, strings.TrimSpace(l.Number+" "+l.Issuer))
			}
		}
		out.Prescription = sh
	}
	return out, nil
}
