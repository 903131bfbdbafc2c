package i18n

import "time"

// DateIn is a calendar day as lang writes it in a message to a patient or a family:
// 01.05.2026, 2026年5月1日, 01/05/2026, Fri 1 May 2026.
func DateIn(lang string, t time.Time) string {
	switch lang {
	case "ru":
		return t.Format("02.01.2006")
	case "zh":
		return t.Format("2006年1月2日")
	case "vi":
		return t.Format("02/01/2006")
	}
	return t.Format("Mon 2 Jan 2006")
}
