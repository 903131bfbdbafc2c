package fhir

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/httpjson"
)

// SMART App Launch 2.0 (ADR 40): the authorization endpoint, the consent it leads to in the
// web app, the launch from a patient's chart, the id_token's keys, and the app tokens'
// confinement to the patient in context.
const (
	AuthorizePath = "/auth/authorize"
	JWKSPath      = "/.well-known/jwks.json"
	// ConsentPage is the web app's page where a signed-in staff member approves an app.
	ConsentPage = "/smart/authorize"
	// idTokenPurpose names the id_token's signing keys among the key file's derived keys.
	idTokenPurpose = "smart id_token"
)

// InPatientCompartment reports whether resource is a type of the Patient compartment as this
// server confines it (compartment): the only types a patient/ scope is offered for.
func InPatientCompartment(resource string) bool {
	_, ok := compartment[resource]
	return ok
}

// authorize is the authorization endpoint a SMART app sends the browser to. It decides
// nothing itself: it hands the request to the web app's consent page, where the staff member
// is signed in (or signs in first) and the request is checked, shown and approved. A form
// POST is read as the same request.
func (h *Handler) authorize(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	form := r.Method == http.MethodGet || strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded")
	if err := r.ParseForm(); err != nil || !form {
		httpjson.Respond(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "send the request's parameters in the query or as a form"})
		return
	}
	q := url.Values{}
	for _, k := range []string{"response_type", "client_id", "redirect_uri", "scope", "state", "aud", "launch", "code_challenge", "code_challenge_method", "nonce"} {
		v := r.Form.Get(k)
		if httpjson.HasControl(v) {
			httpjson.Respond(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": k + " holds a control character"})
			return
		}
		if v != "" {
			q.Set(k, v)
		}
	}
	http.Redirect(w, r, ConsentPage+"?"+q.Encode(), http.StatusFound)
}

// SmartRoutes are the web app's routes of SMART App Launch: the consent page's, the chart's
// launch, and the administrator's registrations. Every one is a browser session's alone: a
// token can neither approve an app nor launch one.
func (h *Handler) SmartRoutes() []auth.Route {
	manage := auth.Need(auth.ManageUser)
	return auth.ForSessionsOnly([]auth.Route{
		{Method: "GET", Path: "/api/smart/authorize", Access: auth.LoggedIn, Handler: h.consentOffer},
		{Method: "POST", Path: "/api/smart/authorize", Access: auth.LoggedIn, Handler: h.consent},
		{Method: "GET", Path: "/api/smart/apps", Access: auth.Need(auth.ViewPatient), Handler: h.launchableApps},
		{Method: "POST", Path: "/api/smart/launch", Access: auth.Need(auth.ViewPatient), Handler: h.launch},
		{Method: "GET", Path: "/api/smart-apps", Access: manage, Handler: h.listApps},
		{Method: "POST", Path: "/api/smart-apps", Access: manage, Handler: h.registerApp},
		{Method: "DELETE", Path: "/api/smart-apps/{id}", Access: manage, Handler: h.revokeApp},
	})
}

func (h *Handler) listApps(w http.ResponseWriter, r *http.Request) {
	list, err := h.Apps.List(r.Context(), false)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": list})
}

func (h *Handler) registerApp(w http.ResponseWriter, r *http.Request) {
	var n auth.NewSmartApp
	if err := httpjson.Decode(w, r, &n); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	app, err := h.Apps.Register(r.Context(), auth.AuditEvent(r), n)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusCreated, app)
}

func (h *Handler) revokeApp(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		httpjson.Error(w, r, apperr.NotFound("smart_app.not_found"))
		return
	}
	app, err := h.Apps.Revoke(r.Context(), auth.AuditEvent(r), id)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, app)
}

// launchable is an app as the chart's launch menu lists it.
type launchable struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func (h *Handler) launchableApps(w http.ResponseWriter, r *http.Request) {
	list, err := h.Apps.List(r.Context(), true)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	out := make([]launchable, len(list))
	for i, a := range list {
		out[i] = launchable{ID: a.ID, Name: a.Name}
	}
	httpjson.Respond(w, http.StatusOK, map[string]any{"data": out})
}

// launch opens an app from a patient's chart: the app's launch URL with iss (the FHIR base)
// and a launch parameter standing for this user, app and patient for a few minutes.
func (h *Handler) launch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		AppID     int64 `json:"app_id"`
		PatientID int64 `json:"patient_id"`
	}
	if err := httpjson.Decode(w, r, &body); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if _, err := h.Patients.Get(r.Context(), body.PatientID); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	launch, app, err := h.Apps.Launch(r.Context(), auth.AuditEvent(r), auth.PrincipalFrom(r.Context()), body.AppID, body.PatientID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	u, err := url.Parse(app.LaunchURL)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	q := u.Query()
	q.Set("iss", h.baseURL(r))
	q.Set("launch", launch)
	u.RawQuery = q.Encode()
	httpjson.Respond(w, http.StatusOK, map[string]string{"url": u.String()})
}

// consentRequest is what the consent page sends: the authorization request as the app made
// it, and the staff member's answer.
type consentRequest struct {
	Request   auth.AuthRequest `json:"request"`
	Approve   bool             `json:"approve"`
	Scopes    []string         `json:"scopes"`
	PatientID int64            `json:"patient_id"`
}

// consentPatient is the patient in context as the consent page names them: the name's parts,
// which the page orders as the reader's language does, and Name in one order for any other
// reader.
type consentPatient struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	FirstName  string `json:"first_name"`
	MiddleName string `json:"middle_name"`
	LastName   string `json:"last_name"`
	MRN        string `json:"mrn"`
	BirthDate  string `json:"birth_date"`
}

// offerFor checks req and reads what the signed-in user would grant. A request whose client
// or redirect URI is wrong is refused here (the page shows why; nothing goes to that URI);
// any other fault of the request is an OAuth error to send back to the app, answered as
// {redirect}. ok is false when the answer is written.
func (h *Handler) offerFor(w http.ResponseWriter, r *http.Request, req auth.AuthRequest) (auth.Offer, bool) {
	app, err := h.Apps.Client(r.Context(), req)
	if err != nil {
		httpjson.Error(w, r, err)
		return auth.Offer{}, false
	}
	offer, err := h.Apps.Offer(r.Context(), auth.PrincipalFrom(r.Context()), app, req)
	if err != nil {
		refuseRequest(w, r, req, err)
		return offer, false
	}
	if strings.TrimRight(req.Aud, "/") != h.baseURL(r) {
		// SMART: the app names the FHIR server it means (aud); a token is never issued for
		// another server's name.
		refuseRequest(w, r, req, &auth.OAuthError{Code: "invalid_request", Description: "aud must be this FHIR server's base URL, " + h.baseURL(r)})
		return offer, false
	}
	return offer, true
}

// refuseRequest answers a request of the consent page that cannot go on: an OAuth error is
// sent back to the app, answered as {redirect}; any other error is the page's to show.
func refuseRequest(w http.ResponseWriter, r *http.Request, req auth.AuthRequest, err error) {
	var oe *auth.OAuthError
	if errors.As(err, &oe) {
		httpjson.Respond(w, http.StatusOK, map[string]string{"redirect": backTo(req, url.Values{"error": {oe.Code}, "error_description": {oe.Description}})})
		return
	}
	httpjson.Error(w, r, err)
}

// backTo is the app's redirect URI with params and the request's state added.
func backTo(req auth.AuthRequest, params url.Values) string {
	u, _ := url.Parse(req.RedirectURI) // registered, so it parses
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	if req.State != "" {
		q.Set("state", req.State)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func authRequestOf(v url.Values) auth.AuthRequest {
	return auth.AuthRequest{ResponseType: v.Get("response_type"), ClientID: v.Get("client_id"), RedirectURI: v.Get("redirect_uri"), Scope: v.Get("scope"),
		State: v.Get("state"), Aud: v.Get("aud"), Launch: v.Get("launch"), CodeChallenge: v.Get("code_challenge"),
		CodeChallengeMethod: v.Get("code_challenge_method"), Nonce: v.Get("nonce")}
}

// consentOffer answers the consent page: the app, the scopes it would be granted and
// withheld, and the patient in context (or that one must be chosen).
func (h *Handler) consentOffer(w http.ResponseWriter, r *http.Request) {
	offer, ok := h.offerFor(w, r, authRequestOf(r.URL.Query()))
	if !ok {
		return
	}
	out := map[string]any{"app": map[string]string{"name": offer.App.Name, "client_id": offer.App.ClientID},
		"scopes": offer.Scopes, "withheld": offer.Withheld, "needs_patient": offer.NeedsPatient}
	if offer.Patient != 0 {
		p, err := h.Patients.Get(r.Context(), offer.Patient)
		if err != nil {
			httpjson.Error(w, r, err)
			return
		}
		out["patient"] = consentPatient{ID: p.ID, Name: strings.TrimSpace(p.LastName + " " + p.FirstName + " " + p.MiddleName),
			FirstName: p.FirstName, MiddleName: p.MiddleName, LastName: p.LastName, MRN: p.MRN, BirthDate: p.BirthDate}
	}
	httpjson.Respond(w, http.StatusOK, out)
}

// consent records the staff member's answer and tells the page where to send the browser:
// back to the app with a one-time code and the state, or with access_denied.
func (h *Handler) consent(w http.ResponseWriter, r *http.Request) {
	var body consentRequest
	if err := httpjson.Decode(w, r, &body); err != nil {
		httpjson.Error(w, r, err)
		return
	}
	offer, ok := h.offerFor(w, r, body.Request)
	if !ok {
		return
	}
	if !body.Approve {
		httpjson.Respond(w, http.StatusOK, map[string]string{"redirect": backTo(body.Request, url.Values{"error": {"access_denied"}})})
		return
	}
	if offer.NeedsPatient && body.PatientID > 0 {
		if _, err := h.Patients.Get(r.Context(), body.PatientID); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	code, err := h.Apps.Approve(r.Context(), auth.AuditEvent(r), auth.PrincipalFrom(r.Context()), body.Request, offer, body.Scopes, body.PatientID)
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	httpjson.Respond(w, http.StatusOK, map[string]string{"redirect": backTo(body.Request, url.Values{"code": {code}})})
}

// appToken answers a SMART app's token request (authorization_code or refresh_token): the
// tokens, and an id_token when the grant has openid. Without the clinic's public address it
// answers nothing (503), before the code or refresh token is spent: the id_token's iss would
// otherwise be the Host header's, and an app cannot discover this server without it anyway.
func (h *Handler) appToken(w http.ResponseWriter, r *http.Request, f url.Values) {
	base, err := h.publicBase(r.Context())
	if err != nil {
		httpjson.Error(w, r, err)
		return
	}
	if base == "" {
		noPublicAddress(w, r, "a SMART app asked for a token")
		return
	}
	e := auth.AuditEvent(r)
	var issued auth.AppIssued
	// Refused requests are counted against the token endpoint's throttle (per address block,
	// and per client_id named for the audit log: a public client_id locks no one out), and
	// audited with a backend client's.
	err = h.Clients.CountedPublic(r.Context(), e.Address, f.Get("client_id"), func() error {
		var err error
		if f.Get("grant_type") == "authorization_code" {
			issued, err = h.Apps.Exchange(r.Context(), e, f.Get("client_id"), f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"))
		} else {
			issued, err = h.Apps.Refresh(r.Context(), e, f.Get("client_id"), f.Get("refresh_token"), f.Get("scope"))
		}
		return err
	})
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	if scopes := strings.Fields(issued.Scope); contains(scopes, "openid") {
		if issued.IDToken, err = h.idToken(base, issued, contains(scopes, "fhirUser")); err != nil {
			httpjson.Error(w, r, err)
			return
		}
	}
	httpjson.Respond(w, http.StatusOK, issued)
}

// idToken is the OpenID Connect id_token of an app's grant: signed ES256 with the key the
// key file's current key derives (published at JWKSPath), issued by the FHIR base at the
// public address (base), for the app, about the account, with fhirUser naming the account's
// Practitioner.
func (h *Handler) idToken(base string, issued auth.AppIssued, fhirUser bool) (string, error) {
	key := h.Keys.SigningKeys(idTokenPurpose)[0]
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key.Key, KeyID: key.ID}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	now := time.Now()
	claims := struct {
		jwt.Claims
		Nonce    string `json:"nonce,omitempty"`
		FHIRUser string `json:"fhirUser,omitempty"`
	}{Claims: jwt.Claims{Issuer: base, Subject: strconv.FormatInt(issued.UserID, 10), Audience: jwt.Audience{issued.ClientID},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(auth.AppTokenLifetime))}, Nonce: issued.Nonce}
	if fhirUser {
		claims.FHIRUser = base + "/Practitioner/" + strconv.FormatInt(issued.UserID, 10)
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// jwks publishes the public halves of the id_token keys, the current one first.
func (h *Handler) jwks(w http.ResponseWriter, r *http.Request) {
	set := jose.JSONWebKeySet{}
	for _, k := range h.Keys.SigningKeys(idTokenPurpose) {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: k.Key.Public(), KeyID: k.ID, Algorithm: string(jose.ES256), Use: "sig"})
	}
	httpjson.Respond(w, http.StatusOK, set)
}

// writeOAuthError answers a refused token request as RFC 6749 §5.2 says.
func writeOAuthError(w http.ResponseWriter, r *http.Request, err error) {
	var oe *auth.OAuthError
	if !errors.As(err, &oe) {
		httpjson.Error(w, r, err)
		return
	}
	status := http.StatusBadRequest
	switch {
	case oe.RetryAfter > 0:
		status = http.StatusTooManyRequests
		w.Header().Set("Retry-After", strconv.Itoa(auth.Seconds(oe.RetryAfter)))
	case oe.Code == "invalid_client":
		status = http.StatusUnauthorized
	}
	httpjson.Respond(w, status, map[string]string{"error": oe.Code, "error_description": oe.Description})
}
