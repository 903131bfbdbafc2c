// Package immunisation keeps a child's (or anyone's) immunisation record and works out what is
// due next: the vaccine catalogue (CVX, ATC, live or not, antigens and components of each
// product), each country's schedule as data with its source, the forecast (earliest, due and
// overdue dates of each antigen's next dose; doses given too early or too close marked invalid),
// the safety check at the point of giving, and the clinic's due list (ADR 49).
package immunisation

// Dates here are calendar days written YYYY-MM-DD, as a birth date is.

// Vaccine is a product of the catalogue: one row of vaccines.tsv.
type Vaccine struct {
	Key  string `json:"key"`
	CVX  string `json:"cvx"`
	ATC  string `json:"atc"`
	Live bool   `json:"live"`
	// Antigens the product gives a dose of: a combination counts for each.
	Antigens []string `json:"antigens"`
	// Components a person may react to (gelatin, egg, neomycin, yeast, latex…): keys of the
	// catalogue's substances (internal/catalogue/substances.tsv).
	Components []string `json:"components"`
	// Names by language (en, ru, zh, vi); Name is the one in the reader's language.
	Names  map[string]string `json:"-"`
	Name   string            `json:"name"`
	Source string            `json:"source"`
	// Route: how the product is given by default (IM, SC, ID, PO, IN), from its prescribing
	// information.
	Route string `json:"route"`
	// Brands: the product's names on the market, by country (vn, ph, ru, cn), as written there.
	Brands map[string][]string `json:"brands,omitempty"`
	// MinAge, MaxAge: the ages the product may be given at (its prescribing information), in
	// the tables' notation ("6w", "7y-1d": under 7 years); empty: no limit. A dose outside them
	// does not count (product_age) and the check at giving stops it.
	MinAge string `json:"min_age,omitempty"`
	MaxAge string `json:"max_age,omitempty"`
}

// Dose is a dose on the record as the forecast reads it.
type Dose struct {
	ID      int64
	Vaccine string
	On      string
	// LowWeight: the baby weighed under 2,000 g when given the dose (the screening's
	// weight_under_2000g): a hepatitis B dose then does not count (ReasonLowWeight).
	LowWeight bool
}

// Exclusion is a refusal or a contraindication of an antigen, as the forecast reads it; Until
// empty: for good (a contraindication) or until recorded otherwise (a refusal).
type Exclusion struct {
	Antigen string
	Kind    string // "refused", "contraindicated" or "deferred" (Until: the day to come back)
	From    string
	Until   string
}

// Child is what the forecast reads of the patient. Ages count from the birth date
// (chronological age, premature infants included, as every schedule here says).
type Child struct {
	BirthDate string
	Sex       string
}

// Evaluation says whether a dose on the record counts for an antigen, and as which dose.
type Evaluation struct {
	DoseID     int64  `json:"record_id"`
	On         string `json:"on"` // the day the dose was given
	Antigen    string `json:"antigen"`
	Schedule   string `json:"schedule"`
	DoseNumber int    `json:"dose_number"` // the dose it counts as; 0 when it does not count
	Valid      bool   `json:"valid"`
	// Reason a dose does not count: too_early (under the minimum age), too_close (under the
	// minimum interval from the dose before), too_late (past the maximum age the series ends
	// at, e.g. rotavirus), not_needed (the series was complete), expired, wrong_vaccine (the
	// schedule's dose is not given with this product: bOPV for an IPV dose, Td for an infant's
	// DTP dose), product_age (outside the ages the product may be given at).
	Reason string `json:"reason,omitempty"`
}

// Recommendation is an antigen's next dose, or why there is none.
type Recommendation struct {
	Antigen    string `json:"antigen"`
	Schedule   string `json:"schedule"`
	DoseNumber int    `json:"dose_number"`
	Doses      int    `json:"doses"` // doses in the series as the schedule reads for this child
	EarliestOn string `json:"earliest_on,omitempty"`
	DueOn      string `json:"due_on,omitempty"`
	OverdueOn  string `json:"overdue_on,omitempty"`
	LatestOn   string `json:"latest_on,omitempty"` // past it the dose is no longer given
	// Status as of the day asked: upcoming (before the due day; it may be given from
	// earliest), due (due..overdue), overdue (from overdue to latest), complete, aged_out
	// (past latest, or it cannot be given by then), refused, contraindicated, deferred (a
	// deferral's return day is still to come: the dose is due from it).
	Status string `json:"status"`
	// Vaccines: the products for this dose — those its row names first, then the others that
	// count for it — that the child is of an age for on the due day.
	Vaccines []string `json:"vaccines"`
	Source   string   `json:"source"`
	// OutsideProgramme: the clinic's first schedule is a national programme and this dose
	// comes from a later one (a service vaccine, outside the programme).
	OutsideProgramme bool `json:"outside_programme"`
}

// Forecast is a child's record read against the clinic's schedules on a day.
type Forecast struct {
	AsOf            string           `json:"as_of"`
	Evaluations     []Evaluation     `json:"evaluations"`
	Recommendations []Recommendation `json:"recommendations"`
}
