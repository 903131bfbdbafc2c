package i18n

import (
	"cmp"
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// Errors of reading a typed number, each with the message key that tells the person what to
// type; NumberKey turns any of them into its key.
var (
	ErrNotANumber   = errors.New("validation.number")
	ErrDecimalComma = errors.New("validation.decimal_point")
	// ErrThousands is a separator before exactly three digits that the language could write
	// either as a thousands group or as decimals ("1.500" in Russian or Vietnamese, "1,500"
	// in English or Chinese): refused, never guessed.
	ErrThousands = errors.New("validation.thousands_separator")
	// ErrTooManyDecimals is an amount with more decimals than its currency has.
	ErrTooManyDecimals = errors.New("validation.too_many_decimals")
)

// NumberKey is the message key of err from ParseDecimal or ParseAmount.
func NumberKey(err error) string {
	for _, known := range []error{ErrDecimalComma, ErrThousands, ErrTooManyDecimals} {
		if errors.Is(err, known) {
			return known.Error()
		}
	}
	return ErrNotANumber.Error()
}

// commaDecimal says whether lang writes decimals with a comma (CLDR number symbols: ru
// decimal "," group U+00A0; vi decimal "," group "."; en and zh decimal "." group ",").
func commaDecimal(lang string) bool { return lang == "ru" || lang == "vi" }

// ParseDecimal reads a number a person typed (a measurement, a dose) as lang writes it.
// The web app's lib/number.ts applies the same rule, case for case.
//
//   - Every language: a point or comma is the decimal sign only where the reading cannot be
//     taken for a thousands group. Digits may be grouped by threes with spaces (space, U+00A0,
//     U+202F, U+2009: the SI and ISO 80000-1 grouping, which no language reads as decimals):
//     "1 500" is 1500. Exponents, hexadecimal, NaN and Inf are refused.
//   - Russian and Vietnamese (decimal comma): "5,6" and "5.6" are 5.6; a point before exactly
//     three digits ("1.500", "12.000") is refused with ErrThousands, since Vietnamese groups
//     thousands with a point and a Russian may too — unless the whole part is zero ("0.500",
//     ".500": a zero is no thousands group), which is 0.5. A point with a comma ("1.500,5")
//     or several points ("1.500.000") are thousands groups: ErrThousands.
//   - English and Chinese (decimal point): "1.500" is 1.5; a comma is never read: "1,500"
//     (threes after commas) is ErrThousands, any other comma ("5,6") ErrDecimalComma.
func ParseDecimal(lang, s string) (float64, error) {
	neg, whole, frac, err := split(lang, s)
	if err != nil {
		return 0, err
	}
	text := whole
	if frac != "" {
		text += "." + frac
	}
	f, err := strconv.ParseFloat(cmp.Or(text, "0"), 64)
	if err != nil {
		return 0, ErrNotANumber
	}
	if neg {
		f = -f
	}
	return f, nil
}

// ParseAmount reads an amount of money a person typed in major units (350, 350,50) into
// minor units of a currency with units decimals, by ParseDecimal's rule, with one more
// reading: in a currency without decimals (VND, JPY, KRW) the language's own thousands sign
// groups by threes ("200.000" in Vietnamese, "200,000" in English or Chinese is 200000; a
// Russian "200.000" stays refused, Russian grouping being spaces), since no decimal reading
// exists. Signs and a bare point (5., .5) are refused; more decimals than the currency has is ErrTooManyDecimals.
func ParseAmount(lang, s string, units int) (int64, error) {
	s = spaces.Replace(strings.TrimSpace(s))
	if strings.ContainsAny(s, "+-") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, ",") ||
		strings.HasSuffix(s, ".") || strings.HasSuffix(s, ",") {
		return 0, ErrNotANumber // an amount is written whole: 5, 0.50
	}
	if g := groupSign(lang); units == 0 && g != "" && groups[g].MatchString(s) {
		s = strings.ReplaceAll(s, g, "")
	}
	_, whole, frac, err := split(lang, s)
	if err != nil {
		return 0, err
	}
	whole = strings.TrimLeft(whole, "0")
	if len(frac) > units {
		return 0, ErrTooManyDecimals
	}
	if len(whole) > 14 {
		return 0, ErrNotANumber
	}
	w, _ := strconv.ParseInt(cmp.Or(whole, "0"), 10, 64)
	f, _ := strconv.ParseInt(cmp.Or(frac+strings.Repeat("0", units-len(frac)), "0"), 10, 64)
	p := int64(1)
	for range units {
		p *= 10
	}
	return w*p + f, nil
}

// groupSign is the thousands sign CLDR gives lang other than a space: none in Russian.
func groupSign(lang string) string {
	switch lang {
	case "vi":
		return "."
	case "ru":
		return ""
	}
	return ","
}

// spaces are the spaces a number may be grouped with, each read as a plain space.
var spaces = strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ")

var digits = regexp.MustCompile(`^\d*$`)

// groups match whole digits grouped by threes with a sign: "1 500", "1,500", "1.500.000".
var groups = map[string]*regexp.Regexp{" ": grouped(" "), ",": grouped(","), ".": grouped(".")}

func grouped(sep string) *regexp.Regexp {
	return regexp.MustCompile(`^\d{1,3}(` + regexp.QuoteMeta(sep) + `\d{3})+$`)
}

// split reads s into its sign and the digits before and after the decimal sign, by
// ParseDecimal's rule.
func split(lang, s string) (neg bool, whole, frac string, err error) {
	s = spaces.Replace(strings.TrimSpace(s))
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if commaDecimal(lang) {
		switch points := strings.Count(s, "."); {
		case points > 1 || (points == 1 && strings.Contains(s, ",")):
			return neg, "", "", ErrThousands
		case strings.Count(s, ",") > 1:
			return neg, "", "", ErrNotANumber
		}
		var dotted bool
		whole, frac, dotted = strings.Cut(s, ".")
		if !dotted {
			whole, frac, _ = strings.Cut(s, ",")
		} else if len(frac) == 3 && digits.MatchString(frac) && strings.Trim(strings.ReplaceAll(whole, " ", ""), "0") != "" {
			return neg, "", "", ErrThousands
		}
	} else {
		if strings.Contains(s, ",") {
			w, _, _ := strings.Cut(s, ".")
			if groups[","].MatchString(w) {
				return neg, "", "", ErrThousands
			}
			return neg, "", "", ErrDecimalComma
		}
		whole, frac, _ = strings.Cut(s, ".")
	}
	if strings.Contains(whole, " ") {
		if !groups[" "].MatchString(whole) {
			return neg, "", "", ErrNotANumber
		}
		whole = strings.ReplaceAll(whole, " ", "")
	}
	if whole+frac == "" || !digits.MatchString(whole) || !digits.MatchString(frac) {
		return neg, "", "", ErrNotANumber
	}
	return neg, whole, frac, nil
}
