package auth

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trustelem/zxcvbn"
	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// The password policy (ASVS 2.1, NIST SP 800-63B 5.1.1.2): 12 to 1,024 characters, no
// composition rules, and not a password that an attacker tries early — one of the ~30,000
// common and breached passwords and words of zxcvbn's lists (github.com/trustelem/zxcvbn,
// MIT; the lists are zxcvbn's), a keyboard pattern, a repeat or a sequence — nor one made of
// the user's own name, username, or the product's or clinic's name. The browser shows the
// same estimate as the user types (@zxcvbn-ts, MIT).
const (
	MaxPasswordLength = 1024
	// minScore is zxcvbn's score a password needs: 3 is "safely unguessable: moderate
	// protection from offline slow-hash scenario" (about 10^8 guesses and more).
	minScore = 3
	// scoredRunes bounds the estimate's work: a longer password is judged by its start.
	scoredRunes = 64
)

// ProductWords are refused inside any password, however short: nobody's password should
// be the product's name.
var ProductWords = []string{"emr"}

var fold = cases.Fold()

// plain folds case and drops accents: "Bình" and "BINH" are the same word here.
func plain(s string) string {
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), fold.String(s))
	if err != nil {
		return fold.String(s)
	}
	return strings.ReplaceAll(out, "đ", "d")
}

// PasswordProblem returns the message key of what is wrong with password for a user known
// by personal (username, name, clinic name, ...), or "" when it may be used.
func PasswordProblem(password string, personal ...string) string {
	n := utf8.RuneCountInString(password)
	switch {
	case n < MinPasswordLength:
		return "validation.password_short"
	case len(password) > MaxPasswordLength:
		return "validation.too_long"
	}
	folded := plain(password)
	for _, w := range ProductWords {
		if strings.Contains(folded, w) {
			return "password.personal"
		}
	}
	var inputs []string
	for _, p := range personal {
		for _, w := range strings.FieldsFunc(plain(p), func(r rune) bool { return r == ' ' || r == '.' || r == '_' || r == '-' || r == '@' }) {
			if utf8.RuneCountInString(w) >= 4 && strings.Contains(folded, w) {
				return "password.personal"
			}
			inputs = append(inputs, w)
		}
	}
	scored := password
	if n > scoredRunes {
		scored = string([]rune(password)[:scoredRunes])
	}
	if zxcvbn.PasswordStrength(scored, inputs).Score < minScore {
		return "password.guessable"
	}
	return ""
}
