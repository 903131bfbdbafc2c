package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestTheKeyFileIsNotBesideTheDatabase: the default place is /etc/emr/keys for root or a
// machine set up with /etc/emr, else the user's configuration folder; a key file at the
// earlier default beside the database is still found (and said to be there), never replaced
// by a new one; a file named on purpose is that file.
func TestTheKeyFileIsNotBesideTheDatabase(t *testing.T) {
	home := func() (string, error) { return "/home/ann/.config", nil }
	noHome := func() (string, error) { return "", errors.New("$HOME is not defined") }
	for _, tc := range []struct {
		name      string
		root, etc bool
		user      func() (string, error)
		want      string
	}{
		{"root", true, false, home, "/etc/emr/keys"},
		{"a service's machine", false, true, home, "/etc/emr/keys"},
		{"a user (make run)", false, false, home, "/home/ann/.config/emr/keys"},
		{"a user without a home", false, false, noHome, "/etc/emr/keys"},
	} {
		if got := defaultKeyFile(tc.root, tc.etc, tc.user); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}

	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	def := DefaultKeyFile()
	if _, err := os.Stat(def); err == nil {
		t.Skipf("this machine has a key file at %s", def)
	}
	dir := t.TempDir()
	c := Config{DatabaseURL: "sqlite:" + filepath.Join(dir, "emr.db")}
	if path, legacy := c.KeyFilePlace(); path != def || legacy {
		t.Errorf("a new clinic: %s %v, want %s", path, legacy, def)
	}
	old := filepath.Join(dir, "emr.key")
	if err := os.WriteFile(old, []byte("emr-key-v1 x y z\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if path, legacy := c.KeyFilePlace(); path != old || !legacy {
		t.Errorf("a clinic whose key is at the earlier place: %s %v, want %s found there", path, legacy, old)
	}
	c.SecretKeyFile = "/srv/keys/emr"
	if path, legacy := c.KeyFilePlace(); path != "/srv/keys/emr" || legacy {
		t.Errorf("a key file named: %s %v", path, legacy)
	}
}
