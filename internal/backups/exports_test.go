package backups_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"emr/internal/backups"
	"emr/internal/database"
	"emr/internal/database/archive"
	"emr/internal/database/dbtest"
	"emr/internal/secret"
)

// TestAnArchiveHoldsNoExportFile: a database holding a finished bulk export (its job and its
// NDJSON) is backed up; the archive holds none of the export's bytes, lists both tables as
// left out, and restores with them empty.
func TestAnArchiveHoldsNoExportFile(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		const marker = "Nguyễn Thị Export-Marker-7f3a9c"
		now := time.Now().UTC()
		var id int64
		if err := db.QueryRowContext(ctx, `INSERT INTO bulk_exports (job, request, types, status, transaction_time, created_at, heartbeat_at, finished_at)
			VALUES ('job-marker-7f3a9c', '/fhir/R4/$export', 'Patient', 'complete', $1, $1, $1, $1) RETURNING id`, now).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO bulk_export_chunks (export_id, type, seq, lines, data) VALUES ($1, 'Patient', 1, 1, $2)`,
			id, `{"resourceType":"Patient","name":[{"text":"`+marker+`"}]}`); err != nil {
			t.Fatal(err)
		}
		keys := secret.Ephemeral()
		opt := backups.ArchiveOptions("test")
		opt.Plaintext, opt.Keys = true, keys // plain, so that its bytes can be searched
		path := filepath.Join(t.TempDir(), "clinic.emr")
		w, err := archive.Write(ctx, db, path, opt)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		content, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []string{marker, "Export-Marker", "job-marker-7f3a9c"} {
			if bytes.Contains(content, []byte(b)) {
				t.Errorf("the archive holds %q", b)
			}
		}
		for _, table := range backups.ExportTables {
			if !slices.Contains(w.Manifest.Ephemeral, table) {
				t.Errorf("%s is not listed as left out: %v", table, w.Manifest.Ephemeral)
			}
		}
		dst, err := database.Open(ctx, dbtest.Engines()[0].URL(t))
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		read := backups.ArchiveOptions("test")
		read.Plaintext, read.Keys = true, keys
		if _, err := archive.RestoreFile(ctx, dst, path, read); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.Count(t, dst, `SELECT COUNT(*) FROM bulk_exports`) + dbtest.Count(t, dst, `SELECT COUNT(*) FROM bulk_export_chunks`); n != 0 {
			t.Errorf("%d export rows restored", n)
		}
	})
}
