// Package archive writes a whole EMR database as one engine-neutral archive and loads one
// into an empty database of either engine (ADR 24).
//
// An archive is a stream of lines, gzip-compressed and, in a file, encrypted to age
// recipients (ADR 26): first the manifest (format,
// the engine and schema version it was taken from, every table with its columns and row
// count, the audit chain's head, the ids and sequences given so far), then each table's rows
// (a line naming the table, then one JSON array per row, in the table's key order), and last
// a trailer with a digest of each table's rows and the SHA-256 of every line before it. The
// rows are read in one snapshot of a live database — PostgreSQL's repeatable-read
// transaction, SQLite's read transaction on its write-ahead log — so writers never wait.
package archive

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"filippo.io/age"

	"emr/internal/database"
	"emr/internal/secret"
)

// Format names the archive format in its manifest; FormatVersion is its version.
const (
	Format        = "emr-archive"
	FormatVersion = 1
)

// Manifest is an archive's first line: what it holds.
type Manifest struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	App     string          `json:"app"`    // the version of EMR that wrote it
	Engine  database.Engine `json:"engine"` // the engine it was taken from
	Schema  int64           `json:"schema"` // the database's schema version (its last migration)
	Created time.Time       `json:"created"`
	Tables  []Table         `json:"tables"`
	Audit   Head            `json:"audit"` // the audit chain's head in the snapshot
	// IDs is, per table, the highest id ever given (a deleted row's id is not given again);
	// Sequences are PostgreSQL's own sequences (not a table's ids) and their last values.
	IDs       map[string]int64 `json:"ids,omitempty"`
	Sequences map[string]int64 `json:"sequences,omitempty"`

	// Recipients are the age public keys the archive file was encrypted to (none: plain).
	Recipients []string `json:"recipients,omitempty"`
	// Ephemeral are the tables whose rows were left out on purpose.
	Ephemeral []string `json:"ephemeral,omitempty"`
	// Key is the id of the clinic's key (its secret key file) whose archive key authenticates
	// the archive: the trailer's tag is the HMAC of everything before it. None: an archive of
	// an earlier version, or not the clinic's.
	Key string `json:"key,omitempty"`

	digests map[string]string // per table, of the rows read (VerifyFile)
}

// Head is the audit chain's head: the position and hash of its last chained event.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// Rows is how many rows the archive holds in all.
func (m Manifest) Rows() int64 {
	var n int64
	for _, t := range m.Tables {
		n += t.Rows
	}
	return n
}

// trailer is an archive's last line.
type trailer struct {
	Digests map[string]string `json:"digests"` // per table, the digest of its rows (digest)
	SHA256  string            `json:"sha256"`  // of every line before this one
	// Tag authenticates every line before this one (their SHA-256) under the archive key of
	// the manifest's Key (secret.Ring.ArchiveTag), hex.
	Tag string `json:"tag,omitempty"`
}

// tableLine opens a table's rows.
type tableLine struct {
	Table string `json:"table"`
}

// Options are what the caller adds to the database's own knowledge.
type Options struct {
	App string // the version of EMR writing the archive
	// Head reads the audit chain's head, in the snapshot or in the restore's transaction.
	Head func(ctx context.Context, q database.Querier) (Head, error)
	// After run in a restore's transaction once the rows are loaded and checked, before it
	// commits: they rebuild what one engine keeps its own way (search indexes, numbering).
	After []func(ctx context.Context, q database.Querier, engine database.Engine) error
	// Progress is told the rows written or loaded so far, out of total.
	Progress func(done, total int64)
	// Ephemeral are tables whose rows a backup leaves out (sessions, login throttling):
	// listed in the manifest with no rows, so that a restore makes them empty.
	Ephemeral []string
	// Recipients, when any, encrypt the archive file (Write) to each age recipient;
	// Identities open an encrypted one (VerifyFile, RestoreFile). An archive file is
	// encrypted unless Plaintext says, on purpose, that it is not to be.
	Recipients []age.Recipient
	Identities []age.Identity
	Plaintext  bool
	// RecipientNames are the recipients as given (age1…), recorded in the manifest.
	RecipientNames []string
	// Keys is the clinic's key file: its current key authenticates an archive written
	// (Dump, Write), and a restore or a check refuses an archive it does not authenticate.
	// Unauthenticated reads, on purpose, an archive that carries no tag (an earlier
	// version's); a tag that does not verify is refused whatever it says.
	Keys            *secret.Ring
	Unauthenticated bool
}

func (o Options) progress(done, total int64) {
	if o.Progress != nil {
		o.Progress(done, total)
	}
}

// ErrDamaged is an archive that is not whole: cut short, changed or not an archive at all.
var ErrDamaged = errors.New("the archive is damaged")

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, args...))
}

// digest adds up the SHA-256 of each row's line in four 64-bit lanes: the same rows give the
// same digest in any order (a table without a key comes back in any order), and a row twice
// counts twice.
type digest [4]uint64

func (d *digest) add(line []byte) {
	sum := sha256.Sum256(line)
	for i := range d {
		d[i] += binary.BigEndian.Uint64(sum[8*i:])
	}
}

func (d digest) String() string {
	var b [32]byte
	for i, v := range d {
		binary.BigEndian.PutUint64(b[8*i:], v)
	}
	return hex.EncodeToString(b[:])
}

// Dump writes the whole database to w as an archive (uncompressed: Write compresses), from
// one snapshot, and returns its manifest.
func Dump(ctx context.Context, db *database.DB, w io.Writer, opt Options) (Manifest, error) {
	snap, err := openSnapshot(ctx, db)
	if err != nil {
		return Manifest{}, err
	}
	defer snap.close()
	m, err := describe(ctx, snap.q, db.Engine, opt)
	if err != nil {
		return Manifest{}, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	sum := sha256.New()
	out := io.MultiWriter(bw, sum)
	if err := writeJSONLine(out, m); err != nil {
		return Manifest{}, err
	}
	digests := map[string]string{}
	total, done := m.Rows(), int64(0)
	opt.progress(0, total)
	for _, t := range m.Tables {
		if err := writeJSONLine(out, tableLine{Table: t.Name}); err != nil {
			return Manifest{}, err
		}
		var d digest
		if slices.Contains(m.Ephemeral, t.Name) {
			digests[t.Name] = d.String()
			continue
		}
		n, err := eachRow(ctx, snap.q, t, func(line []byte) error {
			d.add(line)
			_, err := out.Write(append(line, '\n'))
			if done++; done%10000 == 0 {
				opt.progress(done, total)
			}
			return err
		})
		if err != nil {
			return Manifest{}, err
		}
		if n != t.Rows {
			return Manifest{}, fmt.Errorf("%s: counted %d rows and read %d in the same snapshot", t.Name, t.Rows, n)
		}
		digests[t.Name] = d.String()
	}
	t := trailer{Digests: digests, SHA256: hex.EncodeToString(sum.Sum(nil))}
	if m.Key != "" {
		tag, err := opt.Keys.ArchiveTag(m.Key, sum.Sum(nil))
		if err != nil {
			return Manifest{}, fmt.Errorf("authenticate the archive: %w", err)
		}
		t.Tag = hex.EncodeToString(tag)
	}
	if err := writeJSONLine(bw, t); err != nil {
		return Manifest{}, err
	}
	opt.progress(total, total)
	return m, bw.Flush()
}

func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// snapshot is one consistent view of a live database.
type snapshot struct {
	q     database.Querier
	close func()
}

func openSnapshot(ctx context.Context, db *database.DB) (*snapshot, error) {
	if db.Engine == database.Postgres {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
		if err != nil {
			return nil, fmt.Errorf("open a snapshot: %w", err)
		}
		return &snapshot{q: tx, close: func() { _ = tx.Rollback() }}, nil
	}
	// A deferred transaction: its first read fixes what every later read sees, and it
	// takes no lock that would make the writer wait.
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("open a snapshot: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		conn.Close()
		return nil, fmt.Errorf("open a snapshot: %w", err)
	}
	return &snapshot{q: conn, close: func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
	}}, nil
}

// describe reads the manifest in the snapshot.
func describe(ctx context.Context, q database.Querier, engine database.Engine, opt Options) (Manifest, error) {
	m := Manifest{Format: Format, Version: FormatVersion, App: opt.App, Engine: engine, Created: time.Now().UTC().Truncate(time.Second),
		IDs: map[string]int64{}, Sequences: map[string]int64{}}
	var err error
	if m.Schema, err = schemaVersion(ctx, q); err != nil {
		return m, fmt.Errorf("this is not an EMR database (%w)", err)
	}
	if m.Tables, err = tables(ctx, q, engine); err != nil {
		return m, err
	}
	if len(opt.Recipients) > 0 {
		m.Recipients = opt.RecipientNames
	}
	if opt.Keys != nil {
		m.Key = opt.Keys.Current()
	}
	for i, t := range m.Tables {
		if slices.Contains(opt.Ephemeral, t.Name) {
			m.Ephemeral = append(m.Ephemeral, t.Name)
			continue
		}
		if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(t.Name)).Scan(&m.Tables[i].Rows); err != nil {
			return m, fmt.Errorf("count %s: %w", t.Name, err)
		}
	}
	if opt.Head != nil {
		if m.Audit, err = opt.Head(ctx, q); err != nil {
			return m, err
		}
	}
	if err := highWaterMarks(ctx, q, engine, m); err != nil {
		return m, fmt.Errorf("read the ids given: %w", err)
	}
	return m, nil
}

// schemaVersion is the last migration applied to the database q is on, 0 for none.
func schemaVersion(ctx context.Context, q database.Querier) (int64, error) {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version WHERE is_applied`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	return v.Int64, nil
}

// highWaterMarks fills m.IDs and m.Sequences.
func highWaterMarks(ctx context.Context, q database.Querier, engine database.Engine, m Manifest) error {
	if engine == database.SQLite {
		var exists int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_sequence'`).Scan(&exists); err != nil || exists == 0 {
			return err
		}
		return collect(ctx, q, `SELECT name, seq FROM sqlite_sequence`, m.IDs)
	}
	// Every identity column's sequence; then every other sequence of the schema.
	if err := collect(ctx, q, `SELECT c.table_name, COALESCE(s.last_value, 0) FROM information_schema.columns c
		JOIN pg_sequences s ON s.schemaname = c.table_schema AND quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename) = pg_get_serial_sequence(quote_ident(c.table_name), c.column_name)
		WHERE c.table_schema = current_schema() AND c.is_identity = 'YES'`, m.IDs); err != nil {
		return err
	}
	return collect(ctx, q, `SELECT s.sequencename, COALESCE(s.last_value, 0) FROM pg_sequences s
		WHERE s.schemaname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass AND d.deptype = 'i')`, m.Sequences)
}

func collect(ctx context.Context, q database.Querier, query string, into map[string]int64) error {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			return err
		}
		into[name] = v
	}
	return rows.Err()
}

// eachRow reads the table's rows in key order and hands each one's line to fn; it returns
// how many it read.
func eachRow(ctx context.Context, q database.Querier, t Table, fn func(line []byte) error) (int64, error) {
	query := "SELECT " + columnList(t.Columns) + " FROM " + quote(t.Name)
	if len(t.Key) > 0 {
		keys := make([]Column, len(t.Key))
		for i, k := range t.Key {
			keys[i] = Column{Name: k}
		}
		query += " ORDER BY " + columnList(keys)
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", t.Name, err)
	}
	defer rows.Close()
	vals := make([]any, len(t.Columns))
	ptrs := make([]any, len(t.Columns))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n int64
	var line []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, fmt.Errorf("read %s: %w", t.Name, err)
		}
		if line, err = encodeRow(line[:0], t.Columns, vals); err != nil {
			return n, fmt.Errorf("%s: %w", t.Name, err)
		}
		if err := fn(line); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("read %s: %w", t.Name, err)
	}
	return n, nil
}

// encodeRow appends the row as a JSON array, each value written by its column's kind in one
// form whatever the engine gave: integers, strings, booleans, times as RFC 3339 in UTC to
// the microsecond, bytes as base64, NULL as null.
func encodeRow(b []byte, cols []Column, vals []any) ([]byte, error) {
	b = append(b, '[')
	for i, c := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		v, err := normalize(vals[i], c.Kind)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		switch v := v.(type) {
		case nil:
			b = append(b, "null"...)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case bool:
			b = strconv.AppendBool(b, v)
		case time.Time:
			b = appendString(b, v.Format(time.RFC3339Nano))
		case []byte:
			b = appendString(b, base64.StdEncoding.EncodeToString(v))
		case string:
			b = appendString(b, v)
		}
	}
	return append(b, ']'), nil
}

// normalize is v, as a driver scanned it, in the one Go type of its kind.
func normalize(v any, k Kind) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch k {
	case Int:
		if n, ok := v.(int64); ok {
			return n, nil
		}
	case Bool:
		switch b := v.(type) {
		case bool:
			return b, nil
		case int64:
			return b != 0, nil
		}
	case Time:
		switch t := v.(type) {
		case time.Time:
			return t.UTC().Truncate(time.Microsecond), nil
		case string:
			return parseTime(t)
		}
	case Bytes:
		switch b := v.(type) {
		case []byte:
			return b, nil
		case string:
			return []byte(b), nil
		}
	case Text:
		switch s := v.(type) {
		case string:
			return s, nil
		case []byte:
			return string(s), nil
		}
	}
	return nil, fmt.Errorf("a %T where a %s was expected", v, k)
}

// timeLayouts are the forms SQLite may hold a time in: what the driver writes, what
// CURRENT_TIMESTAMP gives, and RFC 3339.
var timeLayouts = []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05", time.RFC3339Nano, "2006-01-02 15:04:05.999999999 -0700 MST"}

func parseTime(s string) (time.Time, error) {
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Truncate(time.Microsecond), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time", s)
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		i++
	}
	return append(b, '"')
}

// decodeRow parses a row's line into values for the target, by the columns' kinds.
func decodeRow(line []byte, cols []Column, into []any) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return damaged("a row is not a JSON array: %v", err)
	}
	if len(raw) != len(cols) {
		return damaged("a row has %d values for %d columns", len(raw), len(cols))
	}
	for i, c := range cols {
		r := raw[i]
		if string(r) == "null" {
			into[i] = nil
			continue
		}
		var err error
		switch c.Kind {
		case Int:
			into[i], err = strconv.ParseInt(string(r), 10, 64)
		case Bool:
			var b bool
			err = json.Unmarshal(r, &b)
			into[i] = b
		default:
			var s string
			if err = json.Unmarshal(r, &s); err != nil {
				break
			}
			switch c.Kind {
			case Time:
				into[i], err = time.Parse(time.RFC3339Nano, s)
			case Bytes:
				into[i], err = base64.StdEncoding.DecodeString(s)
			default:
				into[i] = s
			}
		}
		if err != nil {
			return damaged("column %s: %v", c.Name, err)
		}
	}
	return nil
}

// reader reads an archive's lines, keeping the SHA-256 of what it read.
type reader struct {
	r       *bufio.Reader
	sum     hash.Hash
	digest  digest            // of the table being read
	digests map[string]string // of the tables read
	keys    *secret.Ring      // the clinic's key file, which must authenticate the archive
	unauth  bool              // an archive without a tag is read on purpose
	key     string            // the manifest's key
}

func newReader(r io.Reader, opt Options) *reader {
	return &reader{r: bufio.NewReaderSize(r, 1<<20), sum: sha256.New(), keys: opt.Keys, unauth: opt.Unauthenticated}
}

// ErrUnauthenticated is an archive that carries no tag: made by an earlier version, or by
// someone who holds only the public recipient.
var ErrUnauthenticated = errors.New("the archive is not authenticated — made by an older version or not by this clinic")

// ErrNotOurs is an archive whose tag does not verify.
var ErrNotOurs = errors.New("the archive was altered or not made with this clinic's key")

// ErrUnknownKey is an archive authenticated by a key the key file does not hold.
var ErrUnknownKey = errors.New("the archive was made with a key this key file does not hold")

// authenticate checks, before a row is read, that the clinic's key file can authenticate
// the archive the manifest opens.
func (r *reader) authenticate(m Manifest) error {
	switch {
	case m.Key == "" && r.unauth:
		return nil
	case m.Key == "":
		return fmt.Errorf("%w: restore it only if you know where it came from, with --unauthenticated", ErrUnauthenticated)
	case r.keys == nil:
		return fmt.Errorf("the archive is authenticated by key %s: give the clinic's secret key file (--secret-key-file or EMR_SECRET_KEY_FILE)", m.Key)
	case !r.keys.Has(m.Key):
		return fmt.Errorf("%w (key %s; %s holds %v): give the key file of the clinic that made it (--secret-key-file)", ErrUnknownKey, m.Key, r.keys.Path(), r.keys.IDs())
	}
	r.key = m.Key
	return nil
}

// line returns the next line without its newline; hashed says whether it counts towards
// the checksum (every line but the trailer).
func (r *reader) line(hashed bool) ([]byte, error) {
	b, err := r.r.ReadBytes('\n')
	if err != nil {
		switch {
		case errors.Is(err, io.EOF):
			return nil, damaged("it ends too early")
		case errors.Is(err, ErrDamaged):
			return nil, err
		}
		return nil, damaged("%v", err)
	}
	if hashed {
		r.sum.Write(b)
	}
	return b[:len(b)-1], nil
}

// manifest reads and checks the first line.
func (r *reader) manifest() (Manifest, error) {
	b, err := r.line(true)
	if err != nil {
		return Manifest{}, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Format != Format {
		return Manifest{}, damaged("it does not start with an EMR archive's manifest")
	}
	if m.Version > FormatVersion {
		return m, fmt.Errorf("the archive's format is version %d; this version of EMR reads up to %d: use a later version", m.Version, FormatVersion)
	}
	return m, r.authenticate(m)
}

// reader's digests are kept per table as its rows are read.

// openTable reads the line that opens t's rows.
func (r *reader) openTable(t Table) error {
	b, err := r.line(true)
	if err != nil {
		return err
	}
	var tl tableLine
	if err := json.Unmarshal(b, &tl); err != nil || tl.Table != t.Name {
		return damaged("the rows of table %s are missing", t.Name)
	}
	r.digest = digest{}
	return nil
}

// row reads t's next row into vals.
func (r *reader) row(t Table, vals []any) error {
	line, err := r.line(true)
	if err != nil {
		return err
	}
	r.digest.add(line)
	if err := decodeRow(line, t.Columns, vals); err != nil {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	return nil
}

// closeTable keeps t's digest once its rows are read.
func (r *reader) closeTable(t Table) {
	if r.digests == nil {
		r.digests = map[string]string{}
	}
	r.digests[t.Name] = r.digest.String()
}

// trailer reads the last line and checks the checksum and the digests read.
func (r *reader) trailer() error {
	want := hex.EncodeToString(r.sum.Sum(nil))
	b, err := r.line(false)
	if err != nil {
		return err
	}
	var t trailer
	if err := json.Unmarshal(b, &t); err != nil || t.SHA256 == "" {
		return damaged("its trailer is missing")
	}
	// The tag first: over the content as read (not the checksum it claims), so that a
	// checksum recomputed after a change is found out as what it is.
	if r.key != "" {
		tag, err := hex.DecodeString(t.Tag)
		if err != nil || len(tag) == 0 {
			return fmt.Errorf("%w (its tag is missing, and its manifest says key %s made it)", ErrNotOurs, r.key)
		}
		good, err := r.keys.ArchiveTag(r.key, r.sum.Sum(nil))
		if err != nil {
			return err
		}
		if !hmac.Equal(tag, good) {
			return fmt.Errorf("%w (key %s)", ErrNotOurs, r.key)
		}
	}
	if t.SHA256 != want {
		return damaged("its checksum does not match its content")
	}
	for name, d := range r.digests {
		if t.Digests[name] != d {
			return damaged("the rows of table %s do not match their digest", name)
		}
	}
	if _, err := r.r.ReadByte(); !errors.Is(err, io.EOF) {
		return damaged("something follows its trailer")
	}
	return nil
}
