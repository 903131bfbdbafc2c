package fhir

import "strings"

// FHIR search escaping (R4 search, "Escaping search parameters"): in a value, "\," "\|" "\$"
// and "\\" are the characters themselves; an unescaped "," separates values any of which
// may match, and in a token an unescaped "|" separates the system from the code.

// splitEscaped splits v at each unescaped sep, keeping the escapes in the parts (a token's
// parts are split again at "|" before they are unescaped).
func splitEscaped(v string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++ // the next character is the escaped one, whatever it is
		case sep:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// cutEscaped is strings.Cut at the first unescaped sep.
func cutEscaped(v string, sep byte) (before, after string, found bool) {
	parts := splitEscaped(v, sep)
	if len(parts) == 1 {
		return v, "", false
	}
	return parts[0], v[len(parts[0])+1:], true
}

// unescape reads a value's escapes: "\," "\|" "\$" and "\\" are the character; a backslash
// before anything else (or at the end) is kept as it is.
func unescape(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && strings.IndexByte(`,|$\`, v[i+1]) >= 0 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// splitValues reads one occurrence of a parameter of kind into its values: split at the
// unescaped commas, each unescaped but a token's (parseToken reads its "|" first).
func splitValues(kind paramKind, v string) []string {
	parts := splitEscaped(v, ',')
	if kind == kindToken {
		return parts
	}
	for i, p := range parts {
		parts[i] = unescape(p)
	}
	return parts
}
