package catalogue

import (
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"emr/internal/textsearch"
)

// Reading a recorded allergy and judging a prescription line against it. An entry may name
// several things ("Paracetamol, Amoxicillin", «Аспирин, пенициллин»): every substance, brand,
// combination and class in it counts. What the knowledge does not know still counts by its
// words ("Zyloprim (SJS)" alerts on a line that says Zyloprim) and is marked unrecognised so
// that someone maps it. An entry that says the allergy was ruled out ("delabelled", «не
// подтверждена», 已排除) is not an allergy.

// Allergen is what a recorded allergy names.
type Allergen struct {
	// Classes the allergy names outright ("penicillin allergy").
	Classes []string
	// Substances it names, brands and combinations read as their ingredients.
	Substances []string
	// StemClasses are the classes of members the knowledge does not know by name, read from
	// their INN stem ("cefoxitin": cephalosporins).
	StemClasses []string
	// Unknown are the items no name claimed, each as its words ("zyloprim").
	Unknown [][]string
	// Vague are the vague classes named ("antibiotics"): an allergy to clarify.
	Vague []string
	// Negated: the entry says it is not (or no longer) an allergy.
	Negated bool
	// Excipients are the excipients and components it names (gelatin, egg, yeast, latex:
	// excipients.tsv), judged against a line's excipients and a vaccine's components.
	Excipients []string
}

// Recognised reports whether the knowledge read anything in the entry.
func (a Allergen) Recognised() bool {
	return len(a.Classes)+len(a.Substances)+len(a.StemClasses)+len(a.Vague) > 0
}

// itemSeparators split one allergy entry into its items.
var itemSeparators = regexp.MustCompile(`[,;/+、，；()（）\[\]]|\s(?:and|or|и|или|và|hoặc|va|hoac)\s|和|及|与`)

// stopWords are the words of an allergy entry that name no medicine: reactions, severities,
// the word "allergy" itself, in the four languages (folded).
var stopWords = map[string]bool{}

// stopHan are the Chinese words that name no medicine.
var stopHan = []string{"过敏史", "过敏性休克", "过敏", "药物", "药", "对", "反应", "皮疹", "荨麻疹", "瘙痒", "严重", "轻度", "中度", "史", "类",
	"休克", "水肿", "呼吸困难", "不耐受", "疑似", "可能", "片", "胶囊", "注射液", "颗粒",
	// Not medicines: iodine and seafood (no risk factor for contrast), latex, foods, pollen.
	"海鲜", "贝类", "虾", "碘", "乳胶", "鸡蛋", "花生", "牛奶", "花粉", "尘螨", "食物"}

func init() {
	for _, w := range strings.Fields(`allergy allergies allergic to reaction reactions rash hives urticaria itch itching itchy swelling
		anaphylaxis anaphylactic shock sjs ten dress angioedema angio oedema edema severe mild moderate intolerance intolerant history of and or with
		drug drugs medicine medicines tablet tablets capsule mg ml side effect effects nausea vomiting diarrhea diarrhoea unknown the a an possible
		suspected skin face lip lips breath shortness bronchospasm wheeze wheezing blisters blistering stevens johnson syndrome toxic epidermal
		necrolysis eosinophilia systemic symptoms fever throat tongue eye eyes childhood child as in after since year years reported patient says
		all any class group high dose doses caused causes gi upset stomach headache dizziness cough myalgia rhabdomyolysis hypersensitivity
		аллергия аллергии аллергический аллергическая на к реакция реакции сыпь крапивница зуд отек отёк отека анафилаксия анафилактический шок
		непереносимость и или с препарат препараты лекарство лекарства таблетки тяжелая тяжелый легкая средняя в детстве синдром стивенса
		джонсона лайелла квинке
		iodine iodide iod йод seafood shellfish shrimp prawn fish crab lobster морепродукты рыба креветки hai san ca tom cua
		latex латекс egg eggs яйцо яйца trung peanut peanuts nuts арахис орехи dau phong pollen пыльца dust пыль food пищевая cat dog
		bee wasp пчела оса ong mold mould плесень milk молоко sua
		di ung voi thuoc phat ban man ngua soc phan ve va hoac nhe nang trung binh phu mach noi me day kho tho hoi chung`) {
		stopWords[textsearch.Fold(w)] = true
	}
}

// negations say an entry is not an allergy (folded, matched as words in a row).
var negations = [][]string{}

func init() {
	for _, n := range []string{"delabelled", "de labelled", "delabeled", "de labeled", "not allergic", "no allergy", "ruled out", "disproven",
		"negative challenge", "не подтверждена", "не подтвержден", "не подтверждено", "не подтвердилась", "снята", "опровергнута",
		"исключена", "аллергии нет", "нет аллергии", "không dị ứng", "đã loại trừ", "không xác nhận", "không phải dị ứng"} {
		negations = append(negations, tokens(n))
	}
}

var negationHan = []string{"已排除", "否认", "已脱标签", "无过敏", "非过敏", "不过敏"}

// negated reports whether text says the allergy is not (or no longer) there.
func negated(text string) bool {
	toks := tokens(text)
	for _, n := range negations {
		for i := 0; i+len(n) <= len(toks); i++ {
			if slices.Equal(toks[i:i+len(n)], n) {
				return true
			}
		}
	}
	return slices.ContainsFunc(negationHan, func(h string) bool { return strings.Contains(text, h) })
}

// severeWords are the reactions that make an allergy severe whatever its severity field
// says: anaphylaxis, angioedema, SJS/TEN, DRESS (and, for statins, rhabdomyolysis). The
// abbreviations count in capitals only: "a rash ten years ago" is no TEN.
var severeWords = regexp.MustCompile(`\bSJS\b|\bTEN\b|\bDRESS\b|(?i:anaphyla|angio-?o?edema|stevens|johnson|\blyell|necrolysis|` +
	`rhabdo|анафилак|ангионевротич|квинке|стивенс|лайелл|рабдомиол|` +
	`过敏性休克|休克|血管性水肿|血管神经性水肿|史蒂文斯|重症多形红斑|表皮坏死|药物超敏反应综合征|横纹肌溶解|` +
	`phan ve|phản vệ|phù mạch|phu mach|quincke|hoại tử thượng bì|tiêu cơ vân)`)

// angioedemaWords are the reactions that count as angioedema.
var angioedemaWords = regexp.MustCompile(`(?i)angio-?o?edema|ангионевротич|квинке|血管性水肿|血管神经性水肿|phù mạch|phu mach|quincke`)

// Reaction is what is known of how a patient reacted.
type Reaction struct {
	// Severe: recorded as severe, or a reaction that always is.
	Severe bool
	// Angioedema: the reaction was angioedema.
	Angioedema bool
	// Unknown: no reaction recorded.
	Unknown bool
}

// ReadReaction reads an allergy's severity field and reaction text (and its substance text,
// where clinics write the reaction too: "Allopurinol (SJS)").
func ReadReaction(severity, reaction, substance string) Reaction {
	all := reaction + " " + substance
	return Reaction{
		Severe:     severity == "severe" || severeWords.MatchString(all),
		Angioedema: angioedemaWords.MatchString(all),
		Unknown:    strings.TrimSpace(reaction) == "",
	}
}

// Allergen reads a recorded allergy's substance text.
func (d *Drugs) Allergen(text string) Allergen {
	var a Allergen
	if negated(text) {
		a.Negated = true
		return a
	}
	for _, item := range itemSeparators.Split(text, -1) {
		r := d.read(item)
		addOnce(&a.Substances, r.substances...)
		addOnce(&a.Classes, r.classes...)
		addOnce(&a.Vague, r.vague...)
		addOnce(&a.StemClasses, r.stemClasses...)
		addOnce(&a.Excipients, r.excipients...)
		if len(r.substances)+len(r.classes)+len(r.vague)+len(r.excipients) > 0 {
			continue
		}
		var content []string
		for _, w := range r.unknown {
			if hanToken(w) {
				content = append(content, splitHan(w)...)
				continue
			}
			if !stopWords[w] && utf8.RuneCountInString(w) >= 3 && !isNumber(w) {
				content = append(content, w)
			}
		}
		if len(content) > 0 {
			a.Unknown = append(a.Unknown, content)
		}
	}
	return a
}

// splitHan removes the Chinese words that name no medicine, leaving the parts of two or
// more characters.
func splitHan(w string) []string {
	for _, s := range stopHan {
		w = strings.ReplaceAll(w, s, " ")
	}
	var out []string
	for _, p := range strings.Fields(w) {
		if utf8.RuneCountInString(p) >= 2 {
			out = append(out, p)
		}
	}
	return out
}

func isNumber(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// containsWords reports whether a line's words hold every word of an unknown allergen
// (Chinese anywhere in a word; others whole, or inflected).
func containsWords(line, want []string) bool {
	for _, w := range want {
		ok := slices.ContainsFunc(line, func(l string) bool {
			if hanToken(w) {
				return strings.Contains(l, w)
			}
			return wordMatches(l, w, true)
		})
		if !ok {
			return false
		}
	}
	return len(want) > 0
}

// AllergyMatch is why a line concerns an allergy.
type AllergyMatch struct {
	// Kind: "substance" (the line holds it), "excipient" (the line holds it as an excipient
	// or a component), "class" (the line is in a class the allergy names), "unrecognised"
	// (the line names an allergen the knowledge does not know), "vague" (an unspecified
	// allergy: antibiotics), or "cross" (a graded cross-sensitivity).
	Kind string
	// Key names what matched: a substance, a class, the unknown words.
	Key string
	// From and To are a cross-sensitivity's classes (From == To: the same class).
	From, To string
	Basis    string
	Tier     Tier
	Blocking bool
}

// Judge says how line concerns allergy a with reaction r: the strongest match, or none.
func (d *Drugs) Judge(a Allergen, r Reaction, line Profile) (AllergyMatch, bool) {
	var best AllergyMatch
	consider := func(m AllergyMatch) {
		if best.Tier == "" || m.Tier.Stronger(best.Tier) {
			best = m
		}
	}
	for _, s := range a.Substances {
		if slices.Contains(line.Substances, s) {
			consider(AllergyMatch{Kind: "substance", Key: s, Tier: TierHard})
		}
	}
	// An excipient or component (gelatin in a capsule shell, egg in a vaccine), or a substance
	// held as one (neomycin left in a vaccine).
	for _, e := range slices.Concat(a.Excipients, a.Substances) {
		if slices.Contains(line.Excipients, e) || slices.Contains(a.Excipients, e) && slices.Contains(line.Substances, e) {
			consider(AllergyMatch{Kind: "excipient", Key: e, Tier: TierHard})
		}
	}
	for _, c := range a.Classes {
		if cls := d.classByKey[c]; cls != nil && line.InClass(c) {
			t := cls.Named
			if t == TierLow && r.Severe {
				t = TierHigh
			}
			consider(AllergyMatch{Kind: "class", Key: c, Tier: t})
		}
	}
	for _, u := range a.Unknown {
		if containsWords(line.Words, u) || slices.Contains(line.Substances, strings.Join(u, " ")) {
			consider(AllergyMatch{Kind: "unrecognised", Key: strings.Join(u, " "), Tier: TierHard})
		}
	}
	// Graded cross-sensitivity, from the classes of what the allergy names.
	from := d.classesOf(a.Substances, nil)
	addOnce(&from, a.StemClasses...)
	for _, x := range d.Cross {
		named := slices.Contains(a.Classes, x.From)
		if !named && (x.When == "named" || !slices.Contains(from, x.From)) || !line.InClass(x.To) {
			continue
		}
		if x.When == "angioedema" && !r.Angioedema && !r.Unknown {
			continue
		}
		t := x.Tier
		if r.Severe {
			t = x.IfSevere
		}
		consider(AllergyMatch{Kind: "cross", Key: x.To, From: x.From, To: x.To, Basis: x.Basis, Tier: t})
	}
	if best.Tier == "" {
		for _, v := range a.Vague {
			if line.InClass(v) {
				consider(AllergyMatch{Kind: "vague", Key: v, Tier: TierHigh})
			}
		}
	}
	if best.Tier == "" {
		return best, false
	}
	best.Blocking = r.Severe && best.Tier != TierLow
	return best, true
}

// names reports whether p holds what a reads: a substance, a class named, unknown words.
func (a Allergen) names(p Profile) bool {
	if slices.ContainsFunc(a.Substances, func(s string) bool { return slices.Contains(p.Substances, s) }) ||
		slices.ContainsFunc(a.Classes, p.InClass) || slices.ContainsFunc(a.StemClasses, p.InClass) {
		return true
	}
	return slices.ContainsFunc(a.Unknown, func(u []string) bool { return containsWords(p.Words, u) })
}

func holdsAny(p Profile, keys []string) bool { return slices.ContainsFunc(keys, p.Has) }

func (in Interaction) sides(p Profile) (a, b bool) {
	if in.ClinicID != 0 {
		return in.firstA.names(p), in.secondA.names(p)
	}
	return holdsAny(p, in.A), holdsAny(p, in.B)
}

// ruleSides says, rule by rule (a bit each), which sides of the interaction rules a profile
// holds; computed once when a line is read, so that a pair is judged by a few AND operations.
type ruleSides struct{ a, b, also []uint64 }

func (d *Drugs) sidesOf(p Profile) ruleSides {
	n := (len(d.Interactions) + 63) / 64
	s := ruleSides{a: make([]uint64, n), b: make([]uint64, n), also: make([]uint64, n)}
	for i, in := range d.Interactions {
		a, b := in.sides(p)
		bit := uint64(1) << (i % 64)
		if a {
			s.a[i/64] |= bit
		}
		if b {
			s.b[i/64] |= bit
		}
		if len(in.Also) > 0 && holdsAny(p, in.Also) {
			s.also[i/64] |= bit
		}
	}
	return s
}

// InteractionsOf returns the rules that line x and another medicine y meet (for a rule with
// a third party, x, y — a combination product — or one of others must hold it), the most
// severe first. Two medicines sharing a
// substance are duplicate therapy, not an interaction of a rule whose sides are one class.
func (d *Drugs) InteractionsOf(x, y Profile, others []Profile) []Interaction {
	xs, ys := x.sides, y.sides
	if len(xs.a) != (len(d.Interactions)+63)/64 {
		xs = d.sidesOf(x)
	}
	if len(ys.a) != len(xs.a) {
		ys = d.sidesOf(y)
	}
	var out []Interaction
	shareSubstance := slices.ContainsFunc(x.Substances, func(s string) bool { return slices.Contains(y.Substances, s) })
	for w := range xs.a {
		hits := xs.a[w]&ys.b[w] | xs.b[w]&ys.a[w]
		for hits != 0 {
			i := w*64 + bits.TrailingZeros64(hits)
			hits &= hits - 1
			in := d.Interactions[i]
			if shareSubstance && in.ClinicID == 0 && slices.Equal(in.A, in.B) {
				continue
			}
			if len(in.Also) > 0 && !slices.ContainsFunc(append([]Profile{x, y}, others...), func(o Profile) bool {
				if len(o.sides.also) == len(xs.a) {
					return o.sides.also[w]&(1<<(i%64)) != 0
				}
				return holdsAny(o, in.Also)
			}) {
				continue
			}
			out = append(out, in)
		}
	}
	slices.SortStableFunc(out, func(a, b Interaction) int { return SeverityRank(b.Severity) - SeverityRank(a.Severity) })
	return out
}
