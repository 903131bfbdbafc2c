package patient

import (
	"slices"
	"testing"
)

// TestKeys: an item keeps its key (the one it carries, else its twin's, the strictest match
// first), a list without keys is keyed by place, and a new item never takes a key given before.
func TestKeys(t *testing.T) {
	type item struct {
		name string
		key  int
	}
	key := func(i item) int { return i.key }
	same := func(a, b item) bool { return a.name == b.name }
	first := func(a, b item) bool { return a.name[0] == b.name[0] }
	for _, c := range []struct {
		what        string
		before, now []item
		seq         int
		want        []int
		wantSeq     int
		matchers    []func(a, b item) bool
	}{
		{"a first list", nil, []item{{"a", 0}, {"b", 0}}, 0, []int{1, 2}, 2, nil},
		{"the middle taken off", []item{{"a", 1}, {"b", 2}, {"c", 3}}, []item{{"a", 0}, {"c", 0}}, 3, []int{1, 3}, 3, []func(a, b item) bool{same}},
		{"a new one after one was taken off", []item{{"a", 1}, {"c", 3}}, []item{{"a", 0}, {"c", 0}, {"d", 0}}, 3, []int{1, 3, 4}, 4, []func(a, b item) bool{same}},
		{"the highest taken off before", []item{{"a", 1}}, []item{{"a", 0}, {"b", 0}}, 2, []int{1, 3}, 3, []func(a, b item) bool{same}},
		{"a carried key wins over a twin", []item{{"a", 1}, {"a", 2}}, []item{{"a", 2}}, 2, []int{2}, 2, []func(a, b item) bool{same}},
		{"an edit sent back with its key", []item{{"a", 1}, {"b", 2}}, []item{{"z", 2}}, 2, []int{2}, 2, []func(a, b item) bool{same}},
		{"a key not in the list is not taken", []item{{"a", 1}}, []item{{"z", 7}}, 1, []int{2}, 2, []func(a, b item) bool{same}},
		{"without keys, by place", []item{{"a", 0}, {"b", 0}, {"c", 0}}, []item{{"c", 0}, {"b", 0}, {"d", 0}}, 0, []int{3, 2, 4}, 4, []func(a, b item) bool{same}},
		{"the strict match before the loose", []item{{"ab", 1}, {"ac", 2}}, []item{{"ax", 0}, {"ac", 0}}, 2, []int{1, 2}, 2, []func(a, b item) bool{same, first}},
		{"twins each once", []item{{"a", 1}, {"a", 2}}, []item{{"a", 0}, {"a", 0}, {"a", 0}}, 2, []int{1, 2, 3}, 3, []func(a, b item) bool{same}},
	} {
		got, seq := Keys(c.before, c.now, key, c.seq, c.matchers...)
		if !slices.Equal(got, c.want) || seq != c.wantSeq {
			t.Errorf("%s: %v seq %d, want %v seq %d", c.what, got, seq, c.want, c.wantSeq)
		}
	}
}
