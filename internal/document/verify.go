package document

import (
	"context"
	_ "embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/i18n"
	"emr/internal/metrics"
)

// Limiter limits the verify page's look-ups in the database, so that every instance shares
// the counts: per address block (an IPv4 address, an IPv6 /64: one household or office
// holds a whole /64) and for everyone together. A code cannot be guessed (80 random bits);
// this keeps anyone from trying, and from filling the database while trying.
type Limiter struct {
	Throttle *auth.Throttle // its Window is the limits' window
}

// Verify look-ups per address block and for everyone, per window.
const (
	VerifyLimit       = 20
	VerifyGlobalLimit = 2000
	VerifyWindow      = 10 * time.Minute
)

// Allow counts a look-up from address; when refused it says how long until the next. A
// look-up that a limit already refuses is answered from a read: a flood past the limits
// writes nothing.
func (l *Limiter) Allow(ctx context.Context, address string) (bool, time.Duration, error) {
	block := "verify:" + auth.AddressBlock(address)
	for _, k := range []struct {
		key   string
		limit int
	}{{verifyEveryone, VerifyGlobalLimit}, {block, VerifyLimit}} {
		if wait, err := l.Throttle.RetryAfter(ctx, k.key, k.limit); err != nil || wait > 0 {
			return false, wait, err
		}
	}
	wait, err := l.Throttle.Take(ctx, block, VerifyLimit)
	if err != nil || wait > 0 {
		return false, wait, err
	}
	wait, err = l.Throttle.Take(ctx, verifyEveryone, VerifyGlobalLimit)
	return wait == 0 && err == nil, wait, err
}

// verifyEveryone is the key of the limit for everyone.
const verifyEveryone = "verify:*"

//go:embed verify.html
var verifyPage string

// The page is a template of the standard library's html/template: every value is escaped
// for where it lands, so nothing from a document becomes markup.
var verifyTemplate = template.Must(template.New("verify").Parse(verifyPage))

// verifyView is what the page is drawn from: its words in the visitor's language, and the
// document's few details.
type verifyView struct {
	Lang, Title, Heading, Message string
	Status                        string // valid, cancelled, or "" when nothing is shown
	StatusText                    string
	Rows                          [][2]string
	Hash                          string
	Note                          string
}

func (h *Handler) verify(w http.ResponseWriter, r *http.Request) {
	lang := i18n.FromRequest(r)
	t := func(key string, args ...any) string { return i18n.T(lang, key, args...) }
	view := verifyView{Lang: lang, Title: t("verify.title"), Heading: t("verify.title"), Note: t("verify.note")}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	status := http.StatusOK
	e := auth.AuditEvent(r)
	ok, wait, err := h.Verify.Allow(r.Context(), e.Address)
	if err != nil {
		slog.ErrorContext(r.Context(), "verify limit", "err", err)
		h.draw(w, r, http.StatusInternalServerError, verifyView{Lang: lang, Title: view.Title, Heading: view.Heading, Message: t("error.internal")})
		return
	}
	if !ok {
		seconds := int(wait.Seconds()) + 1
		w.Header().Set("Retry-After", strconv.Itoa(seconds))
		status, view.Message = http.StatusTooManyRequests, t("verify.throttled", (seconds+59)/60)
		h.draw(w, r, status, view)
		return
	}
	code := NormalCode(r.PathValue("code"))
	var v Verification
	err = apperr.NotFound("document.not_found")
	if code != "" {
		v, err = h.Store.Verify(r.Context(), e, code)
	}
	switch {
	case errors.Is(err, apperr.ErrNotFound):
		metrics.VerifyUnknown() // counted, not audited one by one: a flood of guesses writes nothing
		status, view.Message = http.StatusNotFound, t("verify.unknown")
	case err != nil:
		slog.ErrorContext(r.Context(), "verify failed", "err", err)
		status, view.Message = http.StatusInternalServerError, t("error.internal")
	default:
		view.Status, view.StatusText = v.Status, t("verify.status."+v.Status)
		view.Rows = [][2]string{
			{t("verify.kind"), t("document.kind." + v.Kind)},
			{t("verify.number"), v.Number},
			{t("verify.issued"), dateIn(lang, v.IssuedAt)},
			{t("verify.issued_by"), v.Doctor},
			{t("verify.clinic"), v.Clinic},
			{t("verify.patient"), v.Initials},
		}
		if v.BirthYear != 0 {
			view.Rows = append(view.Rows, [2]string{t("verify.birth_year"), strconv.Itoa(v.BirthYear)})
		}
		if v.CancelledAt != nil {
			view.Rows = append(view.Rows, [2]string{t("verify.cancelled_on"), dateIn(lang, *v.CancelledAt)})
		}
		view.Hash = v.Hash
	}
	h.draw(w, r, status, view)
}

func (h *Handler) draw(w http.ResponseWriter, r *http.Request, status int, view verifyView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", view.Lang)
	w.WriteHeader(status)
	if err := verifyTemplate.Execute(w, view); err != nil {
		slog.ErrorContext(r.Context(), "verify page", "err", err)
	}
}
