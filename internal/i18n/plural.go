package i18n

// PluralForm is the plural category of n in lang (CLDR): one, few or many in Russian, one or
// other in English; Chinese and Vietnamese have one form (other).
func PluralForm(lang string, n int) string {
	if n < 0 {
		n = -n
	}
	switch {
	case lang == "ru" && n%10 == 1 && n%100 != 11:
		return "one"
	case lang == "ru" && n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
		return "few"
	case lang == "ru":
		return "many"
	case lang == "en" && n == 1:
		return "one"
	}
	return "other"
}
