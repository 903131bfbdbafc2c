package i18n

import (
	"testing"
)

// Sources of the number rows.
const (
	cldrEn = "CLDR number symbols en: decimal \".\", group \",\""
	cldrZh = "CLDR number symbols zh: decimal \".\", group \",\""
	cldrRu = "CLDR number symbols ru: decimal \",\", group U+00A0"
	cldrVi = "CLDR number symbols vi: decimal \",\", group \".\""
	si     = "SI Brochure 5.4.4 / ISO 80000-1: digits grouped by threes with a space, never a point or comma"
	c3     = "results review C3: ALT \"1.500\" U/L read as 1.5 in Vietnamese"
	issue  = "issue 35: ru and vi accept a decimal comma; en and zh refuse it"
	plain  = "a measurement is plain digits: no exponent, hexadecimal, NaN or Inf"
)

// Every language's number forms: a point or comma before exactly three digits that the
// language could read as a thousands group is refused, never guessed (issue 52).
func TestParseDecimalByLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, in string
		want     float64
		err      error
		source   string
	}{
		{"ru", "5,6", 5.6, nil, cldrRu},
		{"vi", " 5,6 ", 5.6, nil, cldrVi},
		{"ru", "5.6", 5.6, nil, issue},
		{"vi", "5.6", 5.6, nil, issue},
		{"vi", "5.60", 5.6, nil, issue},
		{"vi", "1.5000", 1.5, nil, "four decimals are no thousands group"},
		{"en", "5.6", 5.6, nil, cldrEn},
		{"zh", "5.6", 5.6, nil, cldrZh},
		{"en", "5,6", 0, ErrDecimalComma, issue},
		{"zh", "5,6", 0, ErrDecimalComma, issue},
		{"en", "-0.5", -0.5, nil, cldrEn},
		{"en", "5.", 5, nil, plain},
		{"en", ".5", 0.5, nil, plain},

		// A point before three digits where the language writes a decimal comma.
		{"vi", "1.500", 0, ErrThousands, c3},
		{"vi", "12.000", 0, ErrThousands, cldrVi},
		{"ru", "1.500", 0, ErrThousands, cldrRu + "; a point groups thousands in Russian handwriting"},
		{"vi", "-1.500", 0, ErrThousands, cldrVi},
		{"vi", "1.500,5", 0, ErrThousands, cldrVi},
		{"ru", "1.234,5", 0, ErrThousands, cldrVi},
		{"vi", "1.500.000", 0, ErrThousands, cldrVi},
		{"vi", "0.500", 0.5, nil, "a zero whole part is no thousands group"},
		{"ru", "0.125", 0.125, nil, "a zero whole part is no thousands group"},
		{"vi", ".500", 0.5, nil, "no whole part is no thousands group"},
		{"vi", "1,500", 1.5, nil, cldrVi + ": the comma is the decimal sign"},
		{"ru", "1,234,5", 0, ErrNotANumber, cldrRu},

		// A comma before three digits where the language writes a decimal point.
		{"en", "1,500", 0, ErrThousands, cldrEn},
		{"zh", "12,000", 0, ErrThousands, cldrZh},
		{"en", "1,500.5", 0, ErrThousands, cldrEn},
		{"en", "1,500,000", 0, ErrThousands, cldrEn},
		{"en", "1,50", 0, ErrDecimalComma, issue},
		{"en", "1.500", 1.5, nil, cldrEn + ": the point is the decimal sign"},

		// Spaces group thousands in every language.
		{"ru", "1 500", 1500, nil, si},
		{"ru", "1\u00a0500", 1500, nil, cldrRu},
		{"ru", "1\u202f500,5", 1500.5, nil, si},
		{"vi", "1 500", 1500, nil, si},
		{"en", "12 000.25", 12000.25, nil, si},
		{"zh", "1 000 000", 1e6, nil, si},
		{"ru", "15 00", 0, ErrNotANumber, si + ": groups of three"},
		{"en", "1 5", 0, ErrNotANumber, si},
		{"ru", "1,5 5", 0, ErrNotANumber, si + ": decimals are not grouped here"},

		{"en", "", 0, ErrNotANumber, plain},
		{"ru", ",", 0, ErrNotANumber, plain},
		{"en", "abc", 0, ErrNotANumber, plain},
		{"en", "1e3", 0, ErrNotANumber, plain},
		{"en", "NaN", 0, ErrNotANumber, plain},
		{"en", "Inf", 0, ErrNotANumber, plain},
		{"en", "0x10", 0, ErrNotANumber, plain},
		{"en", "--5", 0, ErrNotANumber, plain},
		{"en", "1_000", 0, ErrNotANumber, plain},
	} {
		got, err := ParseDecimal(c.lang, c.in)
		if err != c.err || got != c.want {
			t.Errorf("ParseDecimal(%s, %q) = %v, %v; want %v, %v (%s)", c.lang, c.in, got, err, c.want, c.err, c.source)
		}
	}
}

// Amounts of money: ParseDecimal's rule, and in a currency without decimals the language's
// own thousands sign.
func TestParseAmountByLanguageAndCurrency(t *testing.T) {
	const (
		iso    = "ISO 4217 minor units: VND 0, RUB 2, CNY 2, USD 2"
		review = "translations review S6: a Vietnamese cashier types 200.000 for 200,000 VND"
	)
	for _, c := range []struct {
		lang, in string
		units    int
		want     int64
		err      error
		source   string
	}{
		{"vi", "200.000", 0, 200000, nil, review},
		{"vi", "1.200.000", 0, 1200000, nil, review},
		{"vi", "200000", 0, 200000, nil, iso},
		{"vi", "200 000", 0, 200000, nil, si},
		{"vi", "200.00", 0, 0, ErrTooManyDecimals, iso},
		{"vi", "200,5", 0, 0, ErrTooManyDecimals, iso},
		{"vi", "1.500", 2, 0, ErrThousands, cldrVi},
		{"vi", "1.500,50", 2, 0, ErrThousands, cldrVi},
		{"vi", "1500,50", 2, 150050, nil, cldrVi},
		{"vi", "1500.50", 2, 150050, nil, issue},
		{"ru", "350,50", 2, 35050, nil, cldrRu},
		{"ru", "350.5", 2, 35050, nil, issue},
		{"ru", "1 350,50", 2, 135050, nil, cldrRu},
		{"ru", "200.000", 0, 0, ErrThousands, cldrRu + ": Russian groups with spaces"},
		{"en", "350.50", 2, 35050, nil, cldrEn},
		{"en", "350", 2, 35000, nil, cldrEn},
		{"en", "350.505", 2, 0, ErrTooManyDecimals, iso},
		{"en", "1,500", 2, 0, ErrThousands, cldrEn},
		{"en", "200,000", 0, 200000, nil, cldrEn + "; " + iso},
		{"zh", "1,500.00", 2, 0, ErrThousands, cldrZh},
		{"zh", "1.5", 2, 150, nil, cldrZh},
		{"en", "-5", 2, 0, ErrNotANumber, "an amount has no sign"},
		{"en", "+5", 2, 0, ErrNotANumber, "an amount has no sign"},
		{"en", "", 2, 0, ErrNotANumber, plain},
		{"en", "123456789012345", 0, 0, ErrNotANumber, "at most 14 whole digits"},
		{"en", "00350", 2, 35000, nil, cldrEn},
		{"en", "5.", 2, 0, ErrNotANumber, "an amount is written whole"},
		{"ru", ",50", 2, 0, ErrNotANumber, "an amount is written whole"},
	} {
		got, err := ParseAmount(c.lang, c.in, c.units)
		if err != c.err || got != c.want {
			t.Errorf("ParseAmount(%s, %q, %d) = %v, %v; want %v, %v (%s)", c.lang, c.in, c.units, got, err, c.want, c.err, c.source)
		}
	}
}

// Each reading error has its message in every language.
func TestNumberErrorsHaveMessages(t *testing.T) {
	for _, err := range []error{ErrNotANumber, ErrDecimalComma, ErrThousands, ErrTooManyDecimals} {
		for _, lang := range Languages {
			if _, ok := catalogue[lang][NumberKey(err)]; !ok {
				t.Errorf("%s: no %s", lang, NumberKey(err))
			}
		}
	}
}
