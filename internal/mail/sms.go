package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The channels a message goes by.
const (
	Email = "email"
	SMS   = "sms"
)

// Channels are the channels a message may name.
var Channels = []string{Email, SMS}

// SMSGateway hands text messages to an SMS provider over HTTPS, as --sms-url gives it: a
// generic JSON webhook or Twilio's Messages API. Its Send is a Sender's: Envelope.To is the
// phone number, Body the text, MessageID the idempotency key (the same on every attempt).
type SMSGateway struct {
	// Kind is "webhook" or "twilio".
	Kind string
	// URL is where messages are posted (the webhook's own URL, or Twilio's Messages resource).
	URL      string
	Username string
	Password string
	// From is the sending number (Twilio).
	From string
	// Client sends the requests (default: one with a 30 s time-out).
	Client *http.Client
}

// TwilioAPI is the base of Twilio's REST API (tests point the gateway elsewhere).
const TwilioAPI = "https://api.twilio.com"

// ParseSMS reads --sms-url: https://USER:PASSWORD@HOST/PATH for the JSON webhook (plain
// http only to this machine), or twilio://ACCOUNT_SID:AUTH_TOKEN@FROM_NUMBER for Twilio.
func ParseSMS(rawURL string) (*SMSGateway, error) {
	u, err := url.Parse(rawURL)
	bad := errors.New("the SMS gateway URL must look like https://USER:PASSWORD@HOST/PATH (a JSON webhook) or twilio://ACCOUNT_SID:AUTH_TOKEN@FROM_NUMBER")
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, bad
	}
	g := &SMSGateway{Username: u.User.Username()}
	g.Password, _ = u.User.Password()
	switch u.Scheme {
	case "twilio":
		from := u.Host
		if g.Username == "" || g.Password == "" || strings.Trim(from, "+0123456789") != "" || len(from) < 4 {
			return nil, errors.New("the Twilio URL must look like twilio://ACCOUNT_SID:AUTH_TOKEN@+15551234567 (the number messages come from)")
		}
		g.Kind, g.From = "twilio", from
		g.URL = TwilioAPI + "/2010-04-01/Accounts/" + url.PathEscape(g.Username) + "/Messages.json"
	case "https", "http":
		if u.Scheme == "http" && !loopback(u.Hostname()) {
			return nil, errors.New("the SMS webhook must be reached over https (plain http only on this machine)")
		}
		g.Kind = "webhook"
		u.User = nil
		g.URL = u.String()
	default:
		return nil, bad
	}
	return g, nil
}

// WithBase points a Twilio gateway at another base URL than TwilioAPI (tests).
func (g *SMSGateway) WithBase(base string) *SMSGateway {
	if g.Kind == "twilio" {
		g.URL = strings.TrimRight(base, "/") + strings.TrimPrefix(g.URL, TwilioAPI)
	}
	return g
}

// Send posts one text message. Any 2xx is accepted; 408, 429 and 5xx, or no answer, may
// pass later; any other 4xx is refused for good (a PermanentError).
func (g *SMSGateway) Send(ctx context.Context, m Envelope) error {
	var body io.Reader
	var contentType string
	switch g.Kind {
	case "twilio":
		form := url.Values{"To": {m.To}, "From": {g.From}, "Body": {m.Body}}
		body, contentType = strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"
	default:
		b, err := json.Marshal(map[string]string{"to": m.To, "text": m.Body, "id": m.MessageID})
		if err != nil {
			return err
		}
		body, contentType = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.URL, body)
	if err != nil {
		return &PermanentError{Err: err}
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Idempotency-Key", m.MessageID)
	if g.Kind == "twilio" {
		req.Header.Set("I-Twilio-Idempotency-Token", m.MessageID)
	}
	if g.Username != "" || g.Password != "" {
		req.SetBasicAuth(g.Username, g.Password)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	if g.Client != nil {
		c := *g.Client
		client = &c
	}
	client.CheckRedirect = noRedirects
	res, err := client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the URL may carry nothing secret, but keep the log short
		}
		return fmt.Errorf("reach the SMS gateway: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4096)) // what it wrote back is not kept: it may echo the text
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return nil
	case res.StatusCode == http.StatusRequestTimeout || res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500:
		return &GatewayStatus{Code: res.StatusCode, Retry: true}
	default:
		// A redirect is not followed (the text and credentials would go to another address):
		// it is refused like any other answer that is not 2xx, 408, 429 or 5xx.
		return &PermanentError{Err: &GatewayStatus{Code: res.StatusCode}}
	}
}

// GatewayStatus is an SMS gateway's answer other than 2xx: its code alone (its body may
// echo the message or the number, so it is not kept).
type GatewayStatus struct {
	Code  int
	Retry bool // 408, 429, 5xx: may pass later
}

func (e *GatewayStatus) Error() string {
	if e.Retry {
		return fmt.Sprintf("the SMS gateway answered %d", e.Code)
	}
	return fmt.Sprintf("the SMS gateway refused the message (%d)", e.Code)
}

// noRedirects keeps a request where it was sent: a redirect's answer is returned as is.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
