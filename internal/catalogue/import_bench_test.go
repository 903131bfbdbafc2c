package catalogue

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// medicinesCSV is a medicines import of n distinct rows.
func medicinesCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("generic_name,brand,strength,form,unit,ingredients,atc,name_zh\n")
	for i := range n {
		fmt.Fprintf(&b, "Medicine %d,Brand %d,%d mg,tablet,tablet,substance %d,N02BE01,药品%d\n", i, i%97, 10+i%500, i, i)
	}
	return b.Bytes()
}

// TestImportStreamsInBatches: an import longer than a batch is written whole, and a second
// import of the same file changes nothing.
func TestImportStreamsInBatches(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := &Store{DB: db}
		data := medicinesCSV(3*importBatch + 17)
		var seen [][2]int
		ctx := WithProgress(context.Background(), func(done, total int) { seen = append(seen, [2]int{done, total}) })
		rep, err := s.ImportMedicines(ctx, audit.Event{}, data)
		if err != nil || rep.Inserted != 3*importBatch+17 {
			t.Fatalf("import: %+v %v", rep, err)
		}
		// Progress after each batch, up to every row of the file.
		if len(seen) != 4 || seen[0] != [2]int{importBatch, 3*importBatch + 17} || seen[3] != [2]int{3*importBatch + 17, 3*importBatch + 17} {
			t.Errorf("progress: %v", seen)
		}
		rep, err = s.ImportMedicines(context.Background(), audit.Event{}, data)
		if err != nil || rep.Unchanged != 3*importBatch+17 || rep.Inserted != 0 {
			t.Fatalf("again: %+v %v", rep, err)
		}
	})
}

// BenchmarkImport200kMedicines measures a 200,000-row medicines import on SQLite: time, and
// the heap it leaves in use (run: go test -run - -bench Import200k -benchtime 1x ./internal/catalogue).
func BenchmarkImport200kMedicines(b *testing.B) {
	data := medicinesCSV(200_000)
	for b.Loop() {
		db := dbtest.Open(b, dbtest.Engines()[0].URL(b))
		s := &Store{DB: db}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		// The peak of the heap while it runs, sampled.
		done, peak := make(chan struct{}), make(chan uint64)
		go func() {
			var top uint64
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapInuse)
				select {
				case <-done:
					peak <- top
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		// Another writer meanwhile (a clinic goes on working): its slowest write.
		slowest := make(chan time.Duration)
		go func() {
			var worst time.Duration
			for i := 0; ; i++ {
				select {
				case <-done:
					slowest <- worst
					return
				case <-time.After(50 * time.Millisecond):
				}
				t0 := time.Now()
				if _, err := db.ExecContext(context.Background(), `INSERT INTO counters (name, value) VALUES ($1, 1)`, fmt.Sprintf("bench:%d", i)); err != nil {
					b.Error(err)
				}
				worst = max(worst, time.Since(t0))
			}
		}()
		start := time.Now()
		rep, err := s.ImportMedicines(context.Background(), audit.Event{}, data)
		if err != nil || rep.Inserted != 200_000 {
			b.Fatal(rep, err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/import")
		close(done)
		b.ReportMetric(float64(<-peak-before.HeapInuse)/(1<<20), "MiB-peak-heap-growth")
		b.ReportMetric((<-slowest).Seconds()*1000, "ms-slowest-other-write")
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MiB-allocated")
	}
}
