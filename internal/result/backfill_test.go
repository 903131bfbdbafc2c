package result_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	lab "emr/internal/result"
)

// TestUpgradeWithdrawsWhatEarlierCodeLeftOpen (issue 55, J5): an alert left open on a value a
// correction replaced, or on an order marked not done, before 00051 is withdrawn by 00052
// (corrected / not_done, a reason saying so), its order marked; an alert on a value that
// stands is left as it was.
func TestUpgradeWithdrawsWhatEarlierCodeLeftOpen(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		l := newLoop(t, db)
		ctx := context.Background()
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		// As the code before 00051 left them: open, never withdrawn, the order unmarked.
		asBefore := func(orderID int64) {
			exec(`UPDATE critical_alerts SET is_open = 1, withdrawn_at = NULL, withdrawn_by = NULL, withdrawn_reason = '', withdrawn_category = ''
				WHERE order_id = $1`, orderID)
			exec(`UPDATE lab_orders SET withdrawn_to_review = 0, repeat_needed = 0 WHERE id = $1`, orderID)
		}
		corrected, _ := l.withdrawable(t)
		corrected, _ = l.final(t, corrected, "4.2", "the preliminary was misread")
		asBefore(corrected.ID)
		notDone, _ := l.withdrawable(t)
		apitest.Do[any](t, l.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/not-done", notDone.ID),
			map[string]any{"version": notDone.Version, "reason": "specimen rejected"})
		asBefore(notDone.ID)
		standing, _ := l.withdrawable(t)

		path := "../database/migrations/" + map[database.Engine]string{database.SQLite: "sqlite", database.Postgres: "postgres"}[db.Engine] +
			"/00052_withdrawals_backfilled.sql"
		sql, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range strings.Split(string(sql), ";\n") {
			var lines []string
			for _, line := range strings.Split(stmt, "\n") {
				if !strings.HasPrefix(line, "--") {
					lines = append(lines, line)
				}
			}
			if stmt = strings.TrimSpace(strings.Join(lines, "\n")); stmt != "" {
				exec(stmt)
			}
		}

		for id, category := range map[int64]string{corrected.ID: lab.WithdrawnCorrected, notDone.ID: lab.WithdrawnNotDone} {
			a := alertsOf(t, db, id)[0]
			if a.WithdrawnAt == nil || a.WithdrawnCategory != category || !strings.HasPrefix(a.WithdrawnReason, "withdrawn on upgrade") || !a.Open {
				t.Errorf("%s: the alert after the upgrade: %+v", category, a)
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_orders WHERE id = $1 AND withdrawn_to_review = 1`, id); n != 1 {
				t.Errorf("%s: the order is not marked", category)
			}
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM lab_orders WHERE id = $1 AND repeat_needed = 1`, notDone.ID); n != 1 {
			t.Error("the test marked not done is not chased again")
		}
		if a := alertsOf(t, db, standing.ID)[0]; a.WithdrawnAt != nil || !a.Open {
			t.Errorf("an alert on a value that stands was withdrawn: %+v", a)
		}
	})
}
