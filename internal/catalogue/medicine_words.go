package catalogue

import (
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"emr/internal/i18n"
)

// The words of dosage forms and units (tablet, capsule, mL, puff), and the units of
// strengths (mg, mL, IU), in each interface language, so that a Chinese prescription says
// 21 粒 and a Russian one 21 капс. and 400 мг. A clinic's own word that is not in the list is
// printed as the clinic wrote it.
//
//go:embed medicine_words.tsv
var medicineWordsTSV []byte

type wordList map[string]map[string]string // kind + "/" + folded English word -> language -> word

var medicineWords = parseWords(medicineWordsTSV)

func parseWords(data []byte) wordList {
	recs, err := readTSV(data, 5)
	if err != nil {
		panic(fmt.Sprintf("medicine_words.tsv: %v", err))
	}
	out := wordList{}
	for _, rec := range recs {
		out[rec[0]+"/"+strings.ToLower(rec[1])] = map[string]string{"en": rec[1], "ru": rec[2], "zh": rec[3], "vi": rec[4]}
	}
	return out
}

// word is the English word en of kind ("form" or "unit") in lang, or en itself when the
// list does not know it.
func (w wordList) word(kind, en, lang string) string {
	if t := w[kind+"/"+strings.ToLower(strings.TrimSpace(en))][lang]; t != "" {
		return t
	}
	return en
}

// strengthPart is a number or a unit of a strength as the catalogue stores it: "3.3 g/5 mL".
var strengthPart = regexp.MustCompile(`\d+(?:\.\d+)?|[A-Za-z]+`)

// strengthIn is a strength as lang writes it, its units and decimals the reader's ("3,3 г/5
// мл", "400 мг" in Russian); the stored strength stays as the catalogue has it.
func strengthIn(strength, lang string) string {
	return strengthPart.ReplaceAllStringFunc(strength, func(part string) string {
		if part[0] < '0' || part[0] > '9' {
			return medicineWords.word("strength", part, lang)
		}
		f, _ := strconv.ParseFloat(part, 64)
		return i18n.Decimal(lang, f)
	})
}
