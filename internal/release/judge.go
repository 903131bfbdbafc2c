package release

// Decisions a doctor records on an item.
const (
	Released = "released"
	Held     = "held"
)

// Kinds of hold (the clinician's review, M1): discuss first (the patient sees "your doctor
// will discuss this with you") or withhold (Preventing Harm: the patient sees nothing at all,
// not even that the item exists).
const (
	HoldDiscuss  = "discuss"
	HoldWithhold = "withhold"
)

// HoldKinds lists them.
var HoldKinds = []string{HoldDiscuss, HoldWithhold}

// Categories of a hold's reason (M2).
var HoldCategories = []string{"in_person", "harm_patient", "harm_other", "awaiting_results", "other"}

// Why an item is or is not seen by the patient (the chart says it in words: release.why.*).
const (
	// Seen.
	ByRule   = "by_rule"   // the clinic's rule released it
	ByDoctor = "by_doctor" // a doctor released it
	// Shown only as "your doctor will discuss this with you".
	WhyHeld = "held"
	// Not seen at all, not even that it exists (a doctor withheld it).
	WhyWithheld = "withheld"
	// Not seen; a doctor may release it (the rule waits for a hand).
	WhyWaiting = "waiting"
	// Not seen: a sensitive result (Sensitivity) the rule would release is given in person,
	// released only by a doctor's hand.
	WhyInPerson = "in_person"
	// Never seen, whatever the rules or a doctor's click.
	WhyNoResult    = "no_result"    // no current value (none yet, or every one withdrawn)
	WhyNotFinal    = "not_final"    // only preliminary values
	WhyCritical    = "critical"     // a critical value no doctor has acknowledged
	WhyWithdrawn   = "withdrawn"    // a value was withdrawn (entered in error, wrong patient) and its doctor has not reviewed the order since
	WhyNotReviewed = "not_reviewed" // no doctor has reviewed the values (a correction since a review included)
	WhyCancelled   = "cancelled"    // a cancelled document or prescription
	WhyNotIssued   = "not_issued"   // a prescription not yet printed
	// A document that printed a result the patient may not see now (or a value since replaced
	// or withdrawn): a visit summary or results report is never a way round a result's release.
	WhyCarriesHidden = "carries_hidden"
)

// Never says whether why is a reason of the first layer: never seen, whatever a rule or a hand.
func Never(why string) bool {
	switch why {
	case ByRule, ByDoctor, WhyHeld, WhyWithheld, WhyWaiting, WhyInPerson:
		return false
	}
	return true
}

// facts are what the rules judge of one item.
type facts struct {
	Kind     string
	DocKind  string // a document's kind
	Decision string // "", Released, Held
	HoldKind string // a hold's: HoldDiscuss, HoldWithhold
	// A result's.
	HasValue   bool   // a current value
	Final      bool   // its values are final (or corrected), not preliminary
	Critical   bool   // a current value critical and not acknowledged
	Withdrawn  bool   // a value withdrawn, not reviewed since
	Reviewed   bool   // reviewed by a doctor since its last value
	Sensitive  string // a result's category given in person (Sensitivity), "" for none
	Cancelled  bool   // a cancelled document, prescription
	NotPrinted bool   // a prescription not yet printed
	// A document's: it printed a result the patient may not see now, or a value since replaced.
	CarriesHidden bool
}

// never is why an item may never be shown, whatever the rules or a doctor's choice; "" when
// nothing bars it.
func never(f facts) string {
	switch f.Kind {
	case KindResult:
		switch {
		case !f.HasValue:
			return WhyNoResult
		case !f.Final:
			return WhyNotFinal
		case f.Critical:
			return WhyCritical
		case f.Withdrawn:
			return WhyWithdrawn
		case !f.Reviewed:
			return WhyNotReviewed
		}
	case KindDocument, KindPrescription:
		switch {
		case f.Cancelled:
			return WhyCancelled
		case f.CarriesHidden:
			return WhyCarriesHidden
		case f.NotPrinted:
			return WhyNotIssued
		}
	}
	return ""
}

// judge says whether the patient sees an item under rules, and why.
func judge(rules Settings, f facts) (bool, string) {
	if why := never(f); why != "" {
		return false, why
	}
	switch {
	case f.Decision == Held && f.HoldKind == HoldWithhold:
		return false, WhyWithheld
	case f.Decision == Held:
		return false, WhyHeld
	case f.Decision == Released:
		return true, ByDoctor
	case rules.automatic(f.Kind, f.DocKind) && f.Kind == KindResult && f.Sensitive != "":
		// A result usually given in person never reaches the patient by a rule.
		return false, WhyInPerson
	case rules.automatic(f.Kind, f.DocKind):
		return true, ByRule
	}
	return false, WhyWaiting
}
