package patient_test

import (
	"context"
	"encoding/json"
	"testing"

	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	pt "emr/internal/patient"
)

// TestRegistrationKeepsTheRecordAsRead: a registration answers, and keeps as version 1 (the
// FHIR history's first entry), exactly the record a later read returns, and the new name is
// found by one word and by two — on both engines, whatever statements write them.
func TestRegistrationKeepsTheRecordAsRead(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		store := &pt.Store{DB: db}
		in := pt.Input{FirstName: "Quyên", MiddleName: "Thị", LastName: "Đoàn", Sex: "female", BirthDate: "1987-03-09", Phone: "+84 912 000 111",
			Email: "quyen@example.test", Address: "12 Hàng Bạc", History: pt.History{AllergyStatus: pt.AllergiesNone}}
		created, err := store.Create(ctx, audit.Event{ActorName: "Desk"}, in, nil)
		if err != nil {
			t.Fatal(err)
		}
		read, err := store.Get(ctx, created.ID)
		if err != nil {
			t.Fatal(err)
		}
		kept, err := store.Kept(ctx, database.KeptQuery{ID: created.ID, Version: 1})
		if err != nil || len(kept) != 1 {
			t.Fatalf("kept versions: %v %v", kept, err)
		}
		want := asJSON(t, read)
		if got := asJSON(t, created); got != want {
			t.Errorf("answered\n%s\nread\n%s", got, want)
		}
		if got := asJSON(t, kept[0].Record); got != want {
			t.Errorf("kept\n%s\nread\n%s", got, want)
		}
		for _, q := range []string{"quyên", "Đoàn Quy"} {
			res, err := store.List(ctx, pt.ListQuery{Q: q, Page: 1, PerPage: 15})
			if err != nil || len(res.Data) != 1 || res.Data[0].ID != created.ID {
				t.Errorf("search %q: %+v %v", q, res.Data, err)
			}
		}
	})
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
