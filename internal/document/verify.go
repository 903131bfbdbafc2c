package document

import (
	_ "embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/i18n"
)

// Limiter counts each address's look-ups in a fixed window and refuses those past the
// limit until the window ends: a code cannot be guessed (80 random bits), and this keeps
// anyone from trying. Counts live in the instance's memory: behind several instances an
// address may try as often on each, which changes nothing of the guessing odds.
type Limiter struct {
	Limit  int
	Window time.Duration
	Now    func() time.Time

	mu      sync.Mutex
	windows map[string]window
}

type window struct {
	start time.Time
	count int
}

// Verify look-ups an address may make per window.
const (
	VerifyLimit  = 20
	VerifyWindow = 10 * time.Minute
)

// Allow counts a look-up from address; when refused it says how long until the next.
func (l *Limiter) Allow(address string) (bool, time.Duration) {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.windows == nil {
		l.windows = map[string]window{}
	}
	if len(l.windows) > 100_000 { // forget ended windows before the map grows further
		for a, w := range l.windows {
			if now.Sub(w.start) >= l.Window {
				delete(l.windows, a)
			}
		}
	}
	w := l.windows[address]
	if now.Sub(w.start) >= l.Window {
		w = window{start: now}
	}
	w.count++
	l.windows[address] = w
	if w.count > l.Limit {
		return false, l.Window - now.Sub(w.start)
	}
	return true, 0
}

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
	if ok, wait := h.Verify.Allow(e.Address); !ok {
		seconds := int(wait.Seconds()) + 1
		w.Header().Set("Retry-After", strconv.Itoa(seconds))
		status, view.Message = http.StatusTooManyRequests, t("verify.throttled", (seconds+59)/60)
		h.draw(w, r, status, view)
		return
	}
	code := NormalCode(r.PathValue("code"))
	var v Verification
	var err error = apperr.NotFound("document.not_found")
	if code != "" {
		v, err = h.Store.Verify(r.Context(), e, code)
	}
	switch {
	case errors.Is(err, apperr.ErrNotFound):
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
			{t("verify.doctor"), v.Doctor},
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
