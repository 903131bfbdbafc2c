package secret_test

import (
	"path/filepath"
	"strings"
	"testing"

	"emr/internal/secret"
)

// TestRunningInstancesSealUnderTheNewestKeyAtOnce: two instances share a key file; a
// rotation beside them (emr keys rotate, a third reader of the file) makes both seal under
// the new key from their next seal, and what the older key sealed still opens.
func TestRunningInstancesSealUnderTheNewestKeyAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	if _, err := secret.Create(path); err != nil {
		t.Fatal(err)
	}
	a, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	old := a.Seal("totp:1", []byte("JBSWY3DPEHPK3PXP"))
	for i := range 3 { // again and again: each rotation is seen, however quickly it follows
		rotate, err := secret.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := rotate.Rotate(); err != nil {
			t.Fatal(err)
		}
		for name, ring := range map[string]*secret.Ring{"a": a, "b": b} {
			if by := secret.SealedBy(ring.Seal("totp:1", []byte("x"))); by != rotate.Current() {
				t.Errorf("rotation %d: instance %s sealed under %s, the newest key is %s", i, name, by, rotate.Current())
			}
			if plain, err := ring.Open("totp:1", old); err != nil || string(plain) != "JBSWY3DPEHPK3PXP" {
				t.Errorf("rotation %d: instance %s opens the older key's value: %q %v", i, name, plain, err)
			}
		}
	}
	if n := len(a.IDs()); n != 4 {
		t.Errorf("after three rotations the instance holds %d keys", n)
	}
}

// TestRetireRemovesOnlyAKeyThatNoLongerSeals: the current key and an unknown one are
// refused; an older key leaves the file, and what it sealed no longer opens anywhere.
func TestRetireRemovesOnlyAKeyThatNoLongerSeals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	ring, err := secret.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	first := ring.Current()
	sealed := ring.Seal("push:keys", []byte("s"))
	tag, err := ring.ArchiveTag(first, make([]byte, 32))
	if err != nil || len(tag) != 32 {
		t.Fatalf("archive tag: %x %v", tag, err)
	}
	if err := ring.Retire(first); err == nil || !strings.Contains(err.Error(), "rotate first") {
		t.Errorf("retire the current key: %v", err)
	}
	if err := ring.Retire("00000000"); err == nil || !strings.Contains(err.Error(), "holds no key") {
		t.Errorf("retire an unknown key: %v", err)
	}
	if err := ring.Rotate(); err != nil {
		t.Fatal(err)
	}
	other, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ring.Retire(first); err != nil {
		t.Fatal(err)
	}
	if ids := other.IDs(); len(ids) != 1 || ids[0] != ring.Current() {
		t.Errorf("another instance holds %v after the retirement", ids)
	}
	if _, err := other.Open("push:keys", sealed); err == nil {
		t.Error("a value the retired key sealed still opens")
	}
	if _, err := other.ArchiveTag(first, make([]byte, 32)); err == nil {
		t.Error("the retired key still tags archives")
	}
}

// TestConcurrentRotationsKeepEveryKey: rotations at once (two operators, two scripts) each
// add their key; none is written over by another's.
func TestConcurrentRotationsKeepEveryKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	if _, err := secret.Create(path); err != nil {
		t.Fatal(err)
	}
	const n = 8
	rings := make([]*secret.Ring, n)
	for i := range rings {
		r, err := secret.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		rings[i] = r
	}
	done := make(chan error, n)
	for _, r := range rings {
		go func() { done <- r.Rotate() }()
	}
	for range n {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	final, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(final.IDs()); got != n+1 {
		t.Errorf("after %d rotations at once the file holds %d keys", n, got)
	}
}

// BenchmarkSealFromAFile is a seal by a ring read from a file: it looks whether the file was
// rewritten (a stat) before each seal.
func BenchmarkSealFromAFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "keys")
	if _, err := secret.Create(path); err != nil {
		b.Fatal(err)
	}
	ring, err := secret.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ring.Seal("totp:1", []byte("JBSWY3DPEHPK3PXP"))
	}
}

// BenchmarkSealInMemory is the same seal without a file to look at.
func BenchmarkSealInMemory(b *testing.B) {
	ring := secret.Ephemeral()
	for b.Loop() {
		ring.Seal("totp:1", []byte("JBSWY3DPEHPK3PXP"))
	}
}

// TestSigningKeysAreDerivedOnce: a signing key is derived at its first use and kept (the
// id_token of every SMART token request is signed with it); a rotation adds the next key,
// first, derived anew, and the older one is the same key it was. Each purpose has its own.
func TestSigningKeysAreDerivedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	if _, err := secret.Create(path); err != nil {
		t.Fatal(err)
	}
	ring, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	first := ring.SigningKeys("smart id_token")
	if again := ring.SigningKeys("smart id_token"); len(again) != 1 || again[0].Key != first[0].Key || again[0].ID != first[0].ID {
		t.Errorf("derived again: %v, was %v", again, first)
	}
	if other := ring.SigningKeys("another purpose"); other[0].Key.Equal(first[0].Key) {
		t.Error("two purposes share a signing key")
	}
	if err := ring.Rotate(); err != nil {
		t.Fatal(err)
	}
	after := ring.SigningKeys("smart id_token")
	if len(after) != 2 || after[0].ID != ring.Current() || after[0].Key.Equal(first[0].Key) || after[1].Key != first[0].Key {
		t.Errorf("after a rotation: %v, was %v", after, first)
	}
	fresh, err := secret.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if k := fresh.SigningKeys("smart id_token"); !k[1].Key.Equal(first[0].Key) {
		t.Error("another instance derives another key from the same key file")
	}
}
