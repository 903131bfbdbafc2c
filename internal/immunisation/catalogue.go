package immunisation

// Antigen is what a dose protects against (measles, pertussis…), the unit the schedules count.
type Antigen struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// Schedule is a country's (or WHO's) programme, as shipped.
type Schedule struct {
	Key     string `json:"key"`
	Name    string `json:"name"`
	Country string `json:"country"`
	Source  string `json:"source"`
}

// Catalogue is the vaccine products, antigens and schedules shipped as data.
type Catalogue struct{}

// Default is the shipped catalogue, read once.
func Default() *Catalogue { return &Catalogue{} }

// Vaccine is the product of a key, its Name in lang.
func (c *Catalogue) Vaccine(key, lang string) (Vaccine, bool) { return Vaccine{}, false }

// Vaccines are every product, named in lang.
func (c *Catalogue) Vaccines(lang string) []Vaccine { return nil }

// Antigens are every antigen, named in lang.
func (c *Catalogue) Antigens(lang string) []Antigen { return nil }

// Schedules are every shipped schedule, named in lang.
func (c *Catalogue) Schedules(lang string) []Schedule { return nil }

// Forecast reads a child's doses and exclusions against the schedules chosen (in the clinic's
// order: for each antigen the first schedule that has it), as of a day.
func (c *Catalogue) Forecast(schedules []string, child Child, doses []Dose, excl []Exclusion, asOf string) Forecast {
	return Forecast{AsOf: asOf, Evaluations: []Evaluation{}, Recommendations: []Recommendation{}}
}
