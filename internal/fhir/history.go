package fhir

import (
	"net/http"
	"strconv"
	"time"
)

// historyPage reads _count and the cursor (the version, or the change, to go on below).
func historyPage(r *http.Request) (count int, below int64, since time.Time, err error) {
	count = DefaultCount
	q := r.URL.Query()
	if s := q.Get("_count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return 0, 0, since, invalid("fhir.bad_value", "_count", "_count")
		}
		count = min(n, MaxCount)
	}
	if s := q.Get("_cursor"); s != "" {
		c, err := decodeCursor(s)
		if err != nil {
			return 0, 0, since, invalid("fhir.bad_cursor", "_cursor")
		}
		below = c.ID
	}
	if s := q.Get("_since"); s != "" {
		start, _, prefix, err := parseDate(s)
		if err != nil || prefix != "" {
			return 0, 0, since, invalid("fhir.bad_date", "_since", "_since")
		}
		since = start
	}
	return count, below, since, nil
}

func (h *Handler) historyBundle(w http.ResponseWriter, r *http.Request, path string, entries []BundleEntry, next int64) {
	base := h.baseURL(r)
	b := Bundle{base: base0("Bundle"), BundleType: "history", Timestamp: instant(time.Now()), Entry: entries}
	b.Link = []BundleLink{{Relation: "self", URL: base + path + "?" + r.URL.RawQuery}}
	if next > 0 {
		v := r.URL.Query()
		v.Set("_cursor", cursor{ID: next}.encode())
		b.Link = append(b.Link, BundleLink{Relation: "next", URL: base + path + "?" + v.Encode()})
	}
	write(w, http.StatusOK, b)
}
