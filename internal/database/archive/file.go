package archive

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"emr/internal/database"
)

// Written is an archive written to a file.
type Written struct {
	Manifest Manifest
	Path     string
	Size     int64 // bytes on disk
}

// Write writes an archive of db to path, which must not exist: first to path.partial, made
// durable and then renamed, so that a file by the name asked for is always a whole archive.
func Write(ctx context.Context, db *database.DB, path string, opt Options) (Written, error) {
	if _, err := os.Stat(path); err == nil {
		return Written{}, fmt.Errorf("%s exists already; choose a new file name", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
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
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	m, err := Dump(ctx, db, zw, opt)
	if err != nil {
		return fail(err)
	}
	if err := zw.Close(); err != nil {
		return fail(err)
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
	return Written{Manifest: m, Path: path, Size: info.Size()}, nil
}

// openFile opens an archive file for reading, decompressed.
func openFile(path string) (io.Reader, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, damaged("it is not a compressed archive: %v", err)
	}
	return &gzipErrors{zr}, func() { zr.Close(); f.Close() }, nil
}

// gzipErrors reports a compressed stream's damage as the archive's.
type gzipErrors struct{ r io.Reader }

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = damaged("%v", err)
	}
	return n, err
}

// RestoreFile restores the archive at path into db (Restore).
func RestoreFile(ctx context.Context, db *database.DB, path string, opt Options) (Report, error) {
	r, done, err := openFile(path)
	if err != nil {
		return Report{}, err
	}
	defer done()
	return Restore(ctx, db, r, opt)
}

// VerifyFile reads the whole archive at path and checks it as a restore would, without a
// database: its structure, each table's row count and digest, and its checksum. It returns
// the manifest and each table's digest (the same rows give the same digest on either engine).
func VerifyFile(path string, progress func(done, total int64)) (Manifest, map[string]string, error) {
	m, err := verifyFile(path, progress)
	return m, m.digests, err
}

func verifyFile(path string, progress func(done, total int64)) (Manifest, error) {
	src, done, err := openFile(path)
	if err != nil {
		return Manifest{}, err
	}
	defer done()
	r := newReader(src)
	m, err := r.manifest()
	if err != nil {
		return m, err
	}
	opt := Options{Progress: progress}
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
