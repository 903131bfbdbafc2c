package auth

import "testing"

func TestPasswordPolicy(t *testing.T) {
	for _, c := range []struct {
		password string
		personal []string
		want     string
	}{
		{"short", nil, "validation.password_short"},
		{"aaaaaaaaaaaa", nil, "password.guessable"},
		{"123456789012", nil, "password.guessable"},
		{"password1234", nil, "password.guessable"},
		{"qwertyuiop12", nil, "password.guessable"},
		{"iloveyou2024", nil, "password.guessable"},
		{"dr.nguyen-2024!", []string{"dr.nguyen", "Nguyen Van An"}, "password.personal"},
		{"AnBinhSeaside#7", []string{"u1", "Phòng khám An Bình"}, "password.personal"},
		{"Seaside#7-harbour", []string{"u1", "Phòng khám An Bình"}, ""},
		{"myEMRaccount42", nil, "password.personal"},
		{"correct horse battery staple", nil, ""},
		{"their very own password", []string{"doctor"}, ""},
		{"a brand new passphrase", []string{"doctor"}, ""},
		{"a long enough password", []string{"e2e-user"}, ""},
		{"Tr0ub4dor&3-long", nil, ""},
		{"sông Hương mùa thu 1968", []string{"lan"}, ""},
	} {
		if got := PasswordProblem(c.password, c.personal...); got != c.want {
			t.Errorf("%q %v: %q, want %q", c.password, c.personal, got, c.want)
		}
	}
}

func TestGeneratedPasswordsPassThePolicy(t *testing.T) {
	for range 200 {
		if pw := NewPassword(); PasswordProblem(pw, "admin") != "" {
			t.Errorf("a generated password is refused: %q %s", pw, PasswordProblem(pw, "admin"))
		}
	}
}

func FuzzPasswordProblem(f *testing.F) {
	for _, s := range []string{"", "aaaaaaaaaaaa", "correct horse battery staple", "\x00\xff"} {
		f.Add(s, "admin")
	}
	f.Fuzz(func(t *testing.T, password, username string) {
		_ = PasswordProblem(password, username) // never panics, whatever the input
	})
}
