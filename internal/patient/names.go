package patient

import (
	"strings"

	"emr/internal/textsearch"
)

// NameKey is the normalised whole name used to find possible duplicates: the name's tokens
// in order, so "Nguyễn Văn An" and "nguyen van an" agree.
func NameKey(first, middle, last string) string {
	return strings.Join(textsearch.Tokens(first, middle, last), " ")
}

// SortName orders patients by last, first, middle name, ignoring case and accents.
func SortName(first, middle, last string) string {
	return strings.Join([]string{textsearch.Fold(last), textsearch.Fold(first), textsearch.Fold(middle)}, " ")
}
