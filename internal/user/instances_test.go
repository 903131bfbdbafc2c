package user_test

import (
	"context"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestAChangeReachesEveryInstanceAtOnce: two servers on one database each keep who the
// account is between requests; a permission taken away and an account deactivated — here by
// SQL, as an operator or a third instance would — stop working on both at the next request.
func TestAChangeReachesEveryInstanceAtOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		one, two := apitest.New(t, db), apitest.New(t, db)
		onOne := one.LoggedIn("rec", one.CreateUser("rec", "receptionist"))
		onTwo := two.Client()
		for _, name := range []string{auth.SessionCookie, auth.CSRFCookie} {
			onTwo.SetCookie(name, onOne.Cookie(name))
		}
		status := func(c *apitest.Client) int { return c.Do("GET", "/api/patients?q=an", nil).Status }
		for i, c := range []*apitest.Client{onOne, onTwo, onOne, onTwo} { // read and kept by both
			if s := status(c); s != http.StatusOK {
				t.Fatalf("request %d: %d", i, s)
			}
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM role_permissions WHERE permission = 'view patient'
			AND role_id = (SELECT id FROM roles WHERE name = 'receptionist')`); err != nil {
			t.Fatal(err)
		}
		for i, c := range []*apitest.Client{onOne, onTwo} {
			if s := status(c); s != http.StatusForbidden {
				t.Errorf("instance %d after the permission was taken away: %d", i+1, s)
			}
		}
		if _, err := db.ExecContext(ctx, `UPDATE users SET active = FALSE WHERE username = 'rec'`); err != nil {
			t.Fatal(err)
		}
		for i, c := range []*apitest.Client{onOne, onTwo} {
			if s := status(c); s != http.StatusUnauthorized {
				t.Errorf("instance %d after the account was deactivated: %d", i+1, s)
			}
		}
	})
}
