package archive

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"

	"emr/internal/database"
)

// Written is an archive written to a file.
type Written struct {
	Manifest Manifest
	Path     string
	Size     int64 // bytes on disk
}

// ErrUnencrypted is a Write asked without recipients and without Plaintext.
var ErrUnencrypted = errors.New("backups are encrypted: give an age recipient (--recipient age1…, or EMR_BACKUP_RECIPIENTS; make a key pair with age-keygen), or --plaintext to write an unencrypted archive on purpose")

// ParseRecipients reads age recipients (age1…), one sentence for the first wrong one.
func ParseRecipients(list []string) ([]age.Recipient, error) {
	out := make([]age.Recipient, 0, len(list))
	for _, s := range list {
		r, err := age.ParseX25519Recipient(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("%q is not an age public key (age1…, as age-keygen prints it): %v", s, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ReadIdentities reads an age identity file (AGE-SECRET-KEY-1…, as age-keygen writes it).
func ReadIdentities(path string) ([]age.Identity, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the identity file: %w", err)
	}
	defer f.Close()
	ids, err := age.ParseIdentities(f)
	if err != nil {
		return nil, fmt.Errorf("the identity file %s: %v", path, err)
	}
	return ids, nil
}

// Write writes an archive of db to path, which must not exist, encrypted to opt.Recipients
// (or plain, when opt.Plaintext says so on purpose): first to path.partial, made durable
// and then renamed, so that a file by the name asked for is always a whole archive. The
// file is private to its owner (0600, its folder made 0700).
func Write(ctx context.Context, db *database.DB, path string, opt Options) (Written, error) {
	if len(opt.Recipients) == 0 && !opt.Plaintext {
		return Written{}, ErrUnencrypted
	}
	if _, err := os.Stat(path); err == nil {
		return Written{}, fmt.Errorf("%s exists already; choose a new file name", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Written{}, fmt.Errorf("create the backup folder: %w", err)
	}
	partial := path + ".partial"
	f, err := os.OpenFile(partial, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return Written{}, fmt.Errorf("create the backup: %w", err)
	}
	fail := func(err error) (Written, error) {
		f.Close()
		os.Remove(partial)
		return Written{}, err
	}
	var out io.Writer = f
	var sealed io.WriteCloser
	if len(opt.Recipients) > 0 {
		if sealed, err = age.Encrypt(f, opt.Recipients...); err != nil {
			return fail(fmt.Errorf("encrypt the backup: %w", err))
		}
		out = sealed
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestSpeed)
	m, err := Dump(ctx, db, zw, opt)
	if err != nil {
		return fail(err)
	}
	if err := zw.Close(); err != nil {
		return fail(err)
	}
	if sealed != nil {
		if err := sealed.Close(); err != nil {
			return fail(err)
		}
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	info, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(partial, path); err != nil {
		os.Remove(partial)
		return Written{}, err
	}
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	if m.Key != "" {
		// The database remembers the newest archive each key authenticated: `emr keys
		// retire` keeps a key while archives it authenticated may still be restored.
		if err := database.SetCounter(ctx, db, keyCounter+m.Key, m.Created.Unix()); err != nil {
			return Written{Manifest: m, Path: path, Size: info.Size()}, err
		}
	}
	return Written{Manifest: m, Path: path, Size: info.Size()}, nil
}

// keyCounter prefixes the counter holding, per key, the time of the newest archive it
// authenticated (Unix seconds).
const keyCounter = "archive:key:"

// NewestAuthenticatedBy is when the newest archive key id authenticated was written, as this
// database knows (archives written by emr backup and scheduled backups); false for none.
func NewestAuthenticatedBy(ctx context.Context, q database.Querier, id string) (time.Time, bool, error) {
	v, err := database.Counter(ctx, q, keyCounter+id)
	if err != nil || v == 0 {
		return time.Time{}, false, err
	}
	return time.Unix(v, 0).UTC(), true, nil
}

// ageHeader starts every age-encrypted file.
const ageHeader = "age-encryption.org/"

// ErrNoIdentity is an encrypted archive read without an identity that opens it.
var ErrNoIdentity = errors.New("the archive is encrypted: give the identity file that opens it (--identity FILE, the AGE-SECRET-KEY-1… that age-keygen wrote)")

// ErrPlaintext is an archive that is not encrypted, read without --plaintext: the clinic's
// archives are encrypted, so a plain one is read only on purpose.
var ErrPlaintext = errors.New("the archive is NOT encrypted: read it only on purpose, with --plaintext (and no --identity)")

// ErrPlaintextWithIdentity is a plain archive read with an identity, which expects an
// encrypted one.
var ErrPlaintextWithIdentity = errors.New("the archive is NOT encrypted, and an --identity was given for an encrypted one: it is not what the clinic's backups write; read it only on purpose, with --plaintext instead of --identity")

// openFile opens an archive file for reading, decrypted with one of opt.Identities and
// decompressed. Every change to an encrypted file — a byte of its header, its body or its
// end — fails the encryption's authentication, reported as damage. A plain file is opened
// only when opt.Plaintext says so on purpose, and never when identities are given.
func openFile(path string, opt Options) (io.Reader, func(), error) {
	ids := opt.Identities
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReader(f)
	var src io.Reader = br
	start, _ := br.Peek(len(ageHeader))
	switch {
	case string(start) == ageHeader:
	case len(ids) > 0:
		f.Close()
		return nil, nil, ErrPlaintextWithIdentity
	case !opt.Plaintext:
		f.Close()
		return nil, nil, ErrPlaintext
	}
	if string(start) == ageHeader {
		if len(ids) == 0 {
			f.Close()
			return nil, nil, ErrNoIdentity
		}
		src, err = age.Decrypt(br, ids...)
		var none *age.NoIdentityMatchError
		if errors.As(err, &none) {
			f.Close()
			return nil, nil, fmt.Errorf("%w: the identity given does not open it (it was encrypted to other keys, or its header was changed)", ErrDamaged)
		}
		if err != nil {
			f.Close()
			return nil, nil, damaged("its encrypted header was changed or cut: %v", err)
		}
		src = &errorsAs{r: src, say: "it was changed after it was written (its encryption does not authenticate)"}
	}
	zr, err := gzip.NewReader(src)
	if err != nil {
		f.Close()
		if errors.Is(err, ErrDamaged) {
			return nil, nil, err
		}
		return nil, nil, damaged("it is not a compressed archive: %v", err)
	}
	return &errorsAs{r: zr}, func() { zr.Close(); f.Close() }, nil
}

// errorsAs reports a stream's failure as the archive's damage, in say's words when given.
type errorsAs struct {
	r   io.Reader
	say string
}

func (g *errorsAs) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, ErrDamaged) {
		if g.say != "" {
			err = damaged("%s: %v", g.say, err)
		} else {
			err = damaged("%v", err)
		}
	}
	return n, err
}

// Encrypted reports whether the archive file at path is encrypted.
func Encrypted(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	start := make([]byte, len(ageHeader))
	n, _ := io.ReadFull(f, start)
	return string(start[:n]) == ageHeader, nil
}

// RestoreFile restores the archive at path into db (Restore).
func RestoreFile(ctx context.Context, db *database.DB, path string, opt Options) (Report, error) {
	r, done, err := openFile(path, opt)
	if err != nil {
		return Report{}, err
	}
	defer done()
	return Restore(ctx, db, r, opt)
}

// VerifyFile reads the whole archive at path and checks it as a restore would, without a
// database: its encryption, its authentication by opt.Keys, its structure, each table's row
// count and digest, and its checksum. It returns the manifest and each table's digest (the
// same rows give the same digest on either engine).
func VerifyFile(path string, opt Options) (Manifest, map[string]string, error) {
	m, err := verifyFile(path, opt)
	return m, m.digests, err
}

func verifyFile(path string, opt Options) (Manifest, error) {
	src, done, err := openFile(path, opt)
	if err != nil {
		return Manifest{}, err
	}
	defer done()
	r := newReader(src, opt)
	m, err := r.manifest()
	if err != nil {
		return m, err
	}
	total, n := m.Rows(), int64(0)
	opt.progress(0, total)
	for _, t := range m.Tables {
		if err := r.openTable(t); err != nil {
			return m, err
		}
		vals := make([]any, len(t.Columns))
		for range t.Rows {
			if err := r.row(t, vals); err != nil {
				return m, err
			}
			if n++; n%10000 == 0 {
				opt.progress(n, total)
			}
		}
		r.closeTable(t)
	}
	opt.progress(total, total)
	m.digests = r.digests
	return m, r.trailer()
}
