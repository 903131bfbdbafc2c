package fhir

import (
	"net/http"
	"strconv"
	"time"

	"emr/internal/auth"
)

// BundleWritesPerMinute is how many write entries (create, update) the Bundles of one
// credential — an API token, a backend client, or a signed-in user's sessions — may carry
// in a minute, on every instance together (the count is kept in the database's throttle
// table, one upsert a Bundle). Two maximal Bundles a minute: a register of ten thousand
// patients loads in five minutes, while one credential cannot keep the database's writer
// (SQLite has one) busy with Bundles for the rest of the clinic. A Bundle over the rate is
// refused whole, before it writes anything: 429 with Retry-After. Writes one by one are
// not counted here (each is its own request).
const (
	BundleWritesPerMinute = 2 * MaxEntries
	bundleWriteWindow     = time.Minute
)

// credentialKey is the throttle key of the request's credential.
func credentialKey(p *auth.Principal) string {
	switch {
	case p == nil:
		return "bundle-writes:anonymous"
	case p.ClientID != 0:
		return "bundle-writes:client:" + strconv.FormatInt(p.ClientID, 10)
	case p.TokenID != 0:
		return "bundle-writes:token:" + strconv.FormatInt(p.TokenID, 10)
	default:
		return "bundle-writes:user:" + strconv.FormatInt(p.UserID, 10)
	}
}

// takeBundleWrites counts n write entries against the caller's credential: 0 when they
// may go ahead, else how long until its window ends (and then they are not counted: a
// refused Bundle writes nothing).
func (h *Handler) takeBundleWrites(r *http.Request, n int) (time.Duration, error) {
	limit := &auth.Throttle{DB: h.DB, Window: bundleWriteWindow}
	return limit.TakeMany(r.Context(), credentialKey(auth.PrincipalFrom(r.Context())), n, BundleWritesPerMinute)
}
