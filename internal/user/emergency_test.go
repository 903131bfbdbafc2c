package user_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

func TestEmergencyAccess(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		env.CreateUser("boss", "admin")
		var recID, bossID, adminID int64
		for name, id := range map[string]*int64{"rec": &recID, "boss": &bossID, "admin": &adminID} {
			if err := db.QueryRowContext(ctx, `SELECT id FROM users WHERE username = $1`, name).Scan(id); err != nil {
				t.Fatal(err)
			}
		}
		grant := func(id int64, body map[string]any) apitest.Response {
			return admin.Do("POST", fmt.Sprintf("/api/users/%d/emergency-access", id), body)
		}
		if r := rec.Do("GET", "/api/diagnosis-codes?q=a", nil); r.Status != http.StatusForbidden {
			t.Fatalf("receptionist reads diagnosis codes before the grant: %d", r.Status)
		}

		// Refused: administration powers, no reason, too long, nobody's own or an admin's.
		ok := map[string]any{"permissions": []string{"write diagnosis", "view patient"}, "hours": 2, "reason": "Dr Lan is away; night emergency"}
		for _, bad := range []map[string]any{
			{"permissions": []string{"manage user"}, "hours": 2, "reason": "x"},
			{"permissions": []string{"write diagnosis"}, "hours": 0, "reason": "x"},
			{"permissions": []string{"write diagnosis"}, "hours": 25, "reason": "x"},
			{"permissions": []string{"write diagnosis"}, "hours": 2, "reason": "  "},
			{"permissions": []string{}, "hours": 2, "reason": "x"},
		} {
			if r := grant(recID, bad); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("grant %v: %d %s", bad, r.Status, r.Body)
			}
		}
		if r := grant(adminID, ok); r.Status != http.StatusConflict {
			t.Errorf("grant to oneself: %d", r.Status)
		}
		if r := grant(bossID, ok); r.Status != http.StatusConflict {
			t.Errorf("grant to an admin: %d", r.Status)
		}
		if r := rec.Do("POST", fmt.Sprintf("/api/users/%d/emergency-access", recID), ok); r.Status != http.StatusForbidden {
			t.Errorf("receptionist grants herself: %d", r.Status)
		}

		// Granted: the receptionist may now, sees why and until when, and is flagged.
		var acc struct {
			Emergency *struct {
				Reason      string
				Permissions []string
				GrantedBy   string `json:"granted_by"`
			}
		}
		r := grant(recID, ok)
		r.JSON(t, &acc)
		if r.Status != http.StatusOK || acc.Emergency == nil || acc.Emergency.Reason != "Dr Lan is away; night emergency" || len(acc.Emergency.Permissions) != 2 {
			t.Fatalf("grant: %d %s", r.Status, r.Body)
		}
		if r := rec.Do("GET", "/api/diagnosis-codes?q=a", nil); r.Status != http.StatusOK {
			t.Errorf("receptionist under the grant: %d", r.Status)
		}
		var me struct {
			Permissions []string
			Emergency   *struct{ Reason string }
		}
		rec.Do("GET", "/api/user", nil).JSON(t, &me)
		if me.Emergency == nil || me.Emergency.Reason == "" {
			t.Errorf("the user does not see the grant: %+v", me)
		}
		if r := rec.Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Tran", "sex": "female", "birth_date": "1990-01-02"}); r.Status != http.StatusCreated {
			t.Fatalf("create patient: %d %s", r.Status, r.Body)
		}
		var flagged, unflagged int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_events WHERE actor_name = 'rec' AND action = 'patient.create' AND emergency`).Scan(&flagged); err != nil || flagged != 1 {
			t.Errorf("flagged patient.create events: %d %v", flagged, err)
		}
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_events WHERE actor_name = 'admin' AND emergency`).Scan(&unflagged); err != nil || unflagged != 0 {
			t.Errorf("the admin's own events flagged: %d %v", unflagged, err)
		}

		// Ended by the admin: gone at once; ending again is a conflict.
		if r := admin.Do("DELETE", fmt.Sprintf("/api/users/%d/emergency-access", recID), nil); r.Status != http.StatusOK {
			t.Fatalf("end: %d %s", r.Status, r.Body)
		}
		if r := rec.Do("GET", "/api/diagnosis-codes?q=a", nil); r.Status != http.StatusForbidden {
			t.Errorf("receptionist after the end: %d", r.Status)
		}
		if r := admin.Do("DELETE", fmt.Sprintf("/api/users/%d/emergency-access", recID), nil); r.Status != http.StatusConflict {
			t.Errorf("end twice: %d", r.Status)
		}

		// Expired: a grant whose time is up gives nothing.
		grant(recID, ok)
		if _, err := db.ExecContext(ctx, `UPDATE emergency_grants SET expires_at = $1 WHERE ended_at IS NULL`, time.Now().UTC().Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		if r := rec.Do("GET", "/api/diagnosis-codes?q=a", nil); r.Status != http.StatusForbidden {
			t.Errorf("receptionist after expiry: %d", r.Status)
		}
	})
}
