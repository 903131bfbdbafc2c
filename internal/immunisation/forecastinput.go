package immunisation

import (
	"encoding/json"
	"slices"
)

// entry is one completed record as the forecast reads it.
type entry struct {
	ID                                  int64
	Kind, Vaccine, Antigen, On, UntilOn string
	// LowWeight: the screening said the baby weighed under 2,000 g (Dose.LowWeight).
	LowWeight bool
}

// harm is a reaction recorded after a dose, as the forecast and the check read it.
type harm struct {
	DoseID   int64
	Reaction string
	OnsetOn  string
}

// Reactions after which a vaccine sharing an antigen with the dose is not given again: an
// anaphylaxis after a dose contraindicates every later dose of its antigens until a clinician
// records otherwise (WHO position papers; ACIP General Best Practice Guidelines, Contraindications
// and Precautions; Bộ Y tế QĐ 1575/QĐ-BYT 2023, screening: "phản vệ độ III trở lên sau lần tiêm
// chủng trước").
var contraindicatingReactions = []string{"anaphylaxis"}

// forecastInput is a record's doses and exclusions as the forecast reads them: every dose given
// here or elsewhere; each refusal, contraindication and deferral (one naming a product only
// excludes each of its antigens); and each antigen of a dose after which an anaphylaxis was recorded,
// contraindicated from the reaction's day, for good.
func forecastInput(cat interface {
	Vaccine(key, lang string) (Vaccine, bool)
	Antigens(lang string) []Antigen
}, records []entry, harms []harm) ([]Dose, []Exclusion) {
	doses, excl := []Dose{}, []Exclusion{}
	vaccineOf := map[int64]string{}
	for _, r := range records {
		switch r.Kind {
		case KindGiven, KindElsewhere:
			doses = append(doses, Dose{ID: r.ID, Vaccine: r.Vaccine, On: r.On, LowWeight: r.LowWeight})
			vaccineOf[r.ID] = r.Vaccine
		case KindRefused, KindContraindicated, KindDeferred:
			antigens := []string{r.Antigen}
			switch {
			case r.Antigen == "" && r.Vaccine == "": // a deferral of every vaccine
				antigens = nil
				for _, a := range cat.Antigens("en") {
					antigens = append(antigens, a.Key)
				}
			case r.Antigen == "":
				v, _ := cat.Vaccine(r.Vaccine, "en")
				antigens = v.Antigens
			}
			for _, a := range antigens {
				excl = append(excl, Exclusion{Antigen: a, Kind: r.Kind, From: r.On, Until: r.UntilOn})
			}
		}
	}
	for _, h := range harms {
		if !slices.Contains(contraindicatingReactions, h.Reaction) || vaccineOf[h.DoseID] == "" {
			continue
		}
		v, _ := cat.Vaccine(vaccineOf[h.DoseID], "en")
		for _, a := range v.Antigens {
			excl = append(excl, Exclusion{Antigen: a, Kind: KindContraindicated, From: h.OnsetOn})
		}
	}
	return doses, excl
}

// lowWeightIn says whether a dose's stored screening (JSON, as immunisations.screening holds
// it) answered that the baby weighed under 2,000 g.
func lowWeightIn(screening string) bool {
	if screening == "" || screening == "{}" {
		return false
	}
	var s Screening
	return json.Unmarshal([]byte(screening), &s) == nil && s.WeightUnder2000g != nil && *s.WeightUnder2000g
}

// entriesOf are a view's completed records as the forecast reads them.
func entriesOf(records []Record) []entry {
	out := make([]entry, 0, len(records))
	for _, r := range records {
		if r.Status == StatusCompleted {
			out = append(out, entry{ID: r.ID, Kind: r.Kind, Vaccine: r.Vaccine, Antigen: r.Antigen, On: r.OccurredOn, UntilOn: r.UntilOn,
				LowWeight: r.Screening.WeightUnder2000g != nil && *r.Screening.WeightUnder2000g})
		}
	}
	return out
}

// harmsOf are the completed reactions as the forecast reads them.
func harmsOf(reactions []Reaction) []harm {
	out := make([]harm, 0, len(reactions))
	for _, r := range reactions {
		if r.Status == StatusCompleted {
			out = append(out, harm{DoseID: r.ImmunisationID, Reaction: r.Reaction, OnsetOn: r.OnsetOn})
		}
	}
	return out
}
