package textsearch

import (
	"slices"
	"testing"
)

func TestFoldAndTokens(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
	}{
		{[]string{"Nguyễn", "Văn", "Đức"}, []string{"nguyen", "van", "duc"}},
		{[]string{"Ёлкина-Петрова", "Анна"}, []string{"елкина", "петрова", "анна"}},
		{[]string{"王小明"}, []string{"王", "小", "明"}},
		{[]string{"O'Brien", "  José  María "}, []string{"o", "brien", "jose", "maria"}},
		{[]string{"Anna", "anna"}, []string{"anna"}},
	} {
		if got := Tokens(tc.in...); !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, p := range []string{"ngu", "елк", "王", "a"} {
		end := PrefixEnd(p)
		for _, s := range []string{p, p + "yen", p + "zzz", p + "王"} {
			if !(s >= p && s < end) {
				t.Errorf("%q is outside [%q, %q)", s, p, end)
			}
		}
	}
	if got := PrefixEnd("ngu"); got != "ngv" {
		t.Errorf("PrefixEnd(ngu) = %q, want ngv", got)
	}
}

func TestDigits(t *testing.T) {
	if Digits("+84 (90) 123-4567") != "84901234567" {
		t.Fatal(Digits("+84 (90) 123-4567"))
	}
}

func TestPhoneKeyIsTheNationalNumber(t *testing.T) {
	for in, want := range map[string]string{
		"+84 912 345 678":   "912345678",
		"0084 912 345 678":  "912345678",
		"0912 345 678":      "912345678",
		"+84 (0) 912 345":   "912345",
		"912345678":         "912345678",
		"+7 912 345-67-89":  "9123456789",
		"8 (912) 345-67-89": "9123456789",
		"+86 138 0013 8000": "13800138000",
		"138 0013 8000":     "13800138000",
		"+1 415 555 0100":   "4155550100",
		"+855 12 345 678":   "12345678",
		"+8":                "",
		"":                  "",
		"call me":           "",
	} {
		if got := PhoneKey(in); got != want {
			t.Errorf("PhoneKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPhoneIdentity: a code sent to one number opens only a record whose number is the same
// line — never one that shares the national digits in another country (the security review's
// C1: "+1 912 345 6789" against "+7 912 345-67-89").
func TestPhoneIdentity(t *testing.T) {
	for _, c := range []struct {
		a, b, home string
		same       bool
	}{
		{"+7 912 345-67-89", "+1 912 345 6789", "", false},
		{"+7 912 345-67-89", "+1 912 345 6789", "7", false},
		{"+7 912 345-67-89", "8 912 345-67-89", "7", true}, // the Russian trunk 8
		{"+7 912 345-67-89", "8 912 345-67-89", "", false}, // the clinic's country unknown
		{"+84 912 345 678", "0912 345 678", "84", true},    // the trunk 0
		{"+84 912 345 678", "0084 912 345 678", "", true},  // 00 is an international prefix
		{"0912 345 678", "0912-345-678", "", true},         // both domestic, same country
		{"+1 912 345 6789", "0912 345 678", "84", false},   // the home country's 912… is not America's
		{"+84 912 345 678", "+84 913 345 678", "84", false},
		{"", "", "84", false},
	} {
		a, b := PhoneIdentity(c.a, c.home), PhoneIdentity(c.b, c.home)
		if (a != "" && a == b) != c.same {
			t.Errorf("%q ~ %q (home %q): %q %q, want same=%v", c.a, c.b, c.home, a, b, c.same)
		}
	}
	if CallingCode("+84 28 3822 1234") != "84" || CallingCode("0084 28") != "84" || CallingCode("028 3822 1234") != "" || CallingCode("+7 495") != "7" {
		t.Error("calling codes")
	}
}
