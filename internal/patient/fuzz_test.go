package patient

import (
	"net/url"
	"testing"
)

// FuzzListQuery parses any query string as the patient list does (the seed corpus runs in
// every go test): no panic; a query it takes has a page size of the list rule and a known sort.
func FuzzListQuery(f *testing.F) {
	for _, seed := range []string{"q=an&page=2&per_page=20&sort=name", "per_page=500", "page=-1", "sort=%00", "archived=1&q=%E2%80%8B", "page=99999999999999999999"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseListQuery(v.Get)
		if err != nil {
			return
		}
		if q.Page < 1 || q.PerPage < 1 || q.PerPage > 50 {
			t.Fatalf("%q gave page %d per page %d", raw, q.Page, q.PerPage)
		}
		if _, ok := sorts[q.Sort]; !ok {
			t.Fatalf("%q gave sort %q", raw, q.Sort)
		}
	})
}
