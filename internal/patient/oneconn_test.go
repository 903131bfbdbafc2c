package patient_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	pt "emr/internal/patient"
)

// TestConditionalCreateHoldsOneConnection: a create-if-none (FHIR's conditional create) whose
// name search walks the register reads the register's size in its own transaction, not on a
// second connection: with one connection free beside those in use it finishes. It asked the
// pool for another while its transaction held one, which under concurrent creates could take
// every connection and wait forever (found by an audit of the pool's use).
func TestConditionalCreateHoldsOneConnection(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		store := &pt.Store{DB: db}
		// A prefix of twenty names' parts (more than a search merges), which no earlier search
		// has judged: the search walks the register, after reading its size.
		word := "zq" + string(db.Engine)[:1]
		var in []pt.Input
		for i := range 20 {
			in = append(in, pt.Input{FirstName: fmt.Sprintf("%s%c", word, 'a'+i), LastName: "Seeded", Sex: "male", BirthDate: "1970-01-01"})
		}
		if err := store.BulkInsert(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		dbtest.OneConnectionFree(db)
		// A create that waits gives up with its context, which ends its wait for the pool.
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_, _, err := store.CreateIfNone(ctx, audit.Event{At: time.Now().UTC(), ActorName: "test"},
			pt.Input{FirstName: word, LastName: "Nguyen", Sex: "female", BirthDate: "1980-01-01"}, nil, pt.Filter{Words: []string{word}}, "one-connection-"+word)
		// The twenty match the word: the search ran, and says so.
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatal("with one connection free the conditional create waited for a second")
		}
		if !errors.Is(err, pt.ErrAmbiguous) {
			t.Fatalf("with one connection: %v, want several patients matching", err)
		}
	})
}
