package user_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type account struct {
	ID                 int64    `json:"id"`
	Username           string   `json:"username"`
	Name               string   `json:"name"`
	Email              string   `json:"email"`
	Roles              []string `json:"roles"`
	Active             bool     `json:"active"`
	Locked             bool     `json:"locked"`
	MustChangePassword bool     `json:"must_change_password"`
	Version            int      `json:"version"`
}

func TestAccountsLifecycle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		admin := env.LoggedIn("admin", env.CreateUser("admin", "admin"))
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))

		if r := rec.Do("GET", "/api/users", nil); r.Status != http.StatusForbidden {
			t.Errorf("receptionist lists accounts: %d", r.Status)
		}
		var roles struct {
			Data []struct {
				Name        string
				Permissions []string
				Users       int
			}
		}
		admin.Do("GET", "/api/roles", nil).JSON(t, &roles)
		if len(roles.Data) != 4 || roles.Data[0].Name != "admin" || roles.Data[0].Users != 1 || roles.Data[3].Name != "receptionist" || len(roles.Data[3].Permissions) != 9 { // send messages (ADR 42), manage portal (ADR 44) too
			t.Errorf("roles: %+v", roles.Data)
		}
		// Validation: each problem named, in the caller's language; nothing created.
		admin.SetCookie("language", "vi")
		r := admin.Do("POST", "/api/users", map[string]any{"username": "", "name": "X", "email": "bad", "roles": []string{}, "password": "short"})
		_, _, fields := r.Error(t)
		if r.Status != http.StatusUnprocessableEntity || fields["roles"][0] != "Chọn ít nhất một vai trò." || len(fields["email"]) == 0 || len(fields["password"]) == 0 || len(fields["username"]) == 0 {
			t.Errorf("invalid account: %d %s", r.Status, r.Body)
		}
		admin.SetCookie("language", "en")

		r = admin.Do("POST", "/api/users", map[string]any{"username": " Mai ", "name": "Dr  Mai", "email": "mai@clinic.example", "roles": []string{"doctor"}, "password": "a long enough password"})
		var mai account
		r.JSON(t, &mai)
		if r.Status != http.StatusCreated || mai.Username != "mai" || mai.Name != "Dr Mai" || !mai.Active {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		if r := admin.Do("POST", "/api/users", map[string]any{"username": "mai2", "name": "Other", "email": "MAI@clinic.example", "roles": []string{"nurse"}, "password": "a long enough password"}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("same e-mail in another case: %d", r.Status)
		}
		if r := admin.Do("POST", "/api/users", map[string]any{"username": "MAI", "name": "Other", "roles": []string{"nurse"}, "password": "a long enough password"}); r.Status != http.StatusConflict {
			t.Errorf("same username: %d", r.Status)
		}
		var page struct {
			Data []account
			Meta struct{ Total int }
		}
		admin.Do("GET", "/api/users?q=mai", nil).JSON(t, &page)
		if page.Meta.Total != 1 || page.Data[0].ID != mai.ID {
			t.Errorf("search: %+v", page)
		}

		// Mai logs in; a role change applies on her next request, deactivation ends her session.
		doc := env.LoggedIn("mai", "a long enough password")
		// Favourites are kept by those who diagnose or prescribe: a doctor, not a nurse.
		if r := doc.Do("GET", "/api/favourites", nil); r.Status != http.StatusOK {
			t.Errorf("doctor reads her favourites: %d", r.Status)
		}
		change := func(v int, roles []string, active bool) (account, int) {
			var a account
			r := admin.Do("PUT", fmt.Sprintf("/api/users/%d", mai.ID), map[string]any{"name": "Dr Mai", "email": "mai@clinic.example", "roles": roles, "active": active, "version": v})
			if r.Status == http.StatusOK {
				r.JSON(t, &a)
			}
			return a, r.Status
		}
		mai, status := change(mai.Version, []string{"nurse"}, true)
		if status != http.StatusOK {
			t.Fatalf("role change: %d", status)
		}
		if r := doc.Do("GET", "/api/favourites", nil); r.Status != http.StatusForbidden {
			t.Errorf("after becoming a nurse: %d", r.Status)
		}
		if _, status := change(mai.Version-1, []string{"nurse"}, false); status != http.StatusConflict {
			t.Errorf("stale edit: %d", status)
		}
		mai, _ = change(mai.Version, []string{"nurse"}, false)
		if r := doc.Do("GET", "/api/user", nil); r.Status != http.StatusUnauthorized {
			t.Errorf("deactivated session lives on: %d", r.Status)
		}
		if r := env.Client().Login("mai", "a long enough password"); r.Status == http.StatusOK {
			t.Errorf("deactivated login: %d", r.Status)
		}
		mai, _ = change(mai.Version, []string{"nurse"}, true)

		// The last active admin cannot lose the role or be deactivated.
		var me struct{ ID int64 }
		admin.Do("GET", "/api/user", nil).JSON(t, &me)
		var self account
		admin.Do("GET", fmt.Sprintf("/api/users/%d", me.ID), nil).JSON(t, &self)
		r = admin.Do("PUT", fmt.Sprintf("/api/users/%d", me.ID), map[string]any{"name": self.Name, "roles": []string{"doctor"}, "active": true, "version": self.Version})
		if _, code, _ := r.Error(t); r.Status != http.StatusConflict || code != "user.last_admin" {
			t.Errorf("last admin loses the role: %d %s", r.Status, r.Body)
		}
		r = admin.Do("PUT", fmt.Sprintf("/api/users/%d", me.ID), map[string]any{"name": self.Name, "roles": []string{"admin"}, "active": false, "version": self.Version})
		if r.Status != http.StatusConflict {
			t.Errorf("last admin deactivated: %d", r.Status)
		}

		// A reset password must be changed before anything else.
		var reset struct {
			TemporaryPassword string `json:"temporary_password"`
		}
		admin.Do("POST", fmt.Sprintf("/api/users/%d/reset-password", mai.ID), nil).JSON(t, &reset)
		if len(reset.TemporaryPassword) < 12 {
			t.Fatalf("temporary password: %q", reset.TemporaryPassword)
		}
		nurse := env.LoggedIn("mai", reset.TemporaryPassword)
		var who struct {
			MustChangePassword bool `json:"must_change_password"`
		}
		nurse.Do("GET", "/api/user", nil).JSON(t, &who)
		if !who.MustChangePassword {
			t.Errorf("must change password not said")
		}
		if r := nurse.Do("GET", "/api/patients", nil); r.Status != http.StatusForbidden {
			t.Errorf("before changing the password: %d", r.Status)
		}
		if r := nurse.Do("POST", "/api/profile/password", map[string]any{"current_password": reset.TemporaryPassword, "new_password": "my own new password"}); r.Status != http.StatusNoContent {
			t.Fatalf("change: %d %s", r.Status, r.Body)
		}
		if r := nurse.Do("GET", "/api/patients", nil); r.Status != http.StatusOK {
			t.Errorf("after changing the password: %d", r.Status)
		}

		// Unlock a throttled account.
		for range 6 {
			env.Client().Login("mai", "wrong password!!")
		}
		admin.Do("GET", fmt.Sprintf("/api/users/%d", mai.ID), nil).JSON(t, &mai)
		if !mai.Locked {
			t.Errorf("not locked after failed logins")
		}
		admin.Do("POST", fmt.Sprintf("/api/users/%d/unlock", mai.ID), nil).JSON(t, &mai)
		if mai.Locked {
			t.Errorf("still locked")
		}
		if r := env.Client().Login("mai", "my own new password"); r.Status != http.StatusOK {
			t.Errorf("login after unlock: %d", r.Status)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('user.create', 'user.update', 'user.password_reset', 'user.unlock')`); n < 6 {
			t.Errorf("audit events: %d", n)
		}
	})
}
