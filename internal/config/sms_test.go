package config

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestSMSURLHidden: the SMS gateway's URL carries its password; taken from the environment
// or a flag, it is never written back in the usage text, as the mail server's is not.
func TestSMSURLHidden(t *testing.T) {
	t.Setenv("EMR_SMS_URL", "twilio://AC1:tok-secret-42@+15551234567")
	t.Setenv("EMR_SMTP_URL", "smtp://u:mail-secret-42@mail.example:587")
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var c Config
	BindServe(fs, &c)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if c.SMSURL != "twilio://AC1:tok-secret-42@+15551234567" {
		t.Fatalf("SMSURL %q", c.SMSURL)
	}
	var usage bytes.Buffer
	fs.SetOutput(&usage)
	fs.PrintDefaults()
	if !strings.Contains(usage.String(), "-sms-url") || strings.Contains(usage.String(), "secret-42") {
		t.Fatalf("usage:\n%s", usage.String())
	}
}

// TestPublicBase: where links point when the clinic set no public address.
func TestPublicBase(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Addr: "127.0.0.1:8080"}, "http://127.0.0.1:8080"},
		{Config{Addr: ":8443", TLSCert: "cert.pem"}, "https://localhost:8443"},
		{Config{Addr: "[::1]:80"}, "http://[::1]:80"},
		{Config{}, ""},
	} {
		if got := c.cfg.PublicBase(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.cfg, got, c.want)
		}
	}
}
