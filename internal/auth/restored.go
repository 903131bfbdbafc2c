package auth

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/secret"
)

// EndedRestored is why a token or a backend client ended at a restore: a restored copy of the
// clinic (a drill, a staging copy) must not accept the credentials the clinic's own server
// accepts, so a restore ends them unless told, with --keep-tokens, that it replaces that
// server (ADR 26).
const EndedRestored = "restored"

// Restored is what a restore ended: API tokens and backend clients by id, and how many
// backend access tokens it removed.
type Restored struct {
	Tokens, Clients []int64
	AccessTokens    int64
}

// EndRestoredCredentials ends, in a restore's transaction q (at the archive's schema, which
// may predate the tables), every live API token and backend client and removes every
// backend access token; MarkRestored later says why, at this version's schema.
func EndRestoredCredentials(ctx context.Context, q database.Querier, engine database.Engine, at time.Time) (Restored, error) {
	var r Restored
	has := func(table string) (bool, error) {
		query := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1`
		if engine == database.Postgres {
			query = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`
		}
		var n int
		err := q.QueryRowContext(ctx, query, table).Scan(&n)
		return n > 0, err
	}
	ids := func(query string, args ...any) ([]int64, error) {
		return database.Column[int64](q.QueryContext(ctx, query, args...))
	}
	if ok, err := has("api_tokens"); err != nil || !ok {
		return r, err
	}
	var err error
	if r.Tokens, err = ids(`UPDATE api_tokens SET revoked_at = $1, revoked_by = NULL WHERE revoked_at IS NULL AND expires_at > $1 RETURNING id`, at); err != nil {
		return r, fmt.Errorf("end the restored API tokens: %w", err)
	}
	if ok, err := has("api_clients"); err != nil || !ok {
		return r, err
	}
	res, err := q.ExecContext(ctx, `DELETE FROM api_client_tokens`)
	if err != nil {
		return r, fmt.Errorf("end the restored access tokens: %w", err)
	}
	r.AccessTokens, _ = res.RowsAffected()
	if r.Clients, err = ids(`UPDATE api_clients SET revoked_at = $1, revoked_by = NULL WHERE revoked_at IS NULL RETURNING id`, at); err != nil {
		return r, fmt.Errorf("end the restored backend clients: %w", err)
	}
	return r, nil
}

// MarkRestored says, once the restored database is at this version's schema, why the
// tokens and clients r names ended, and records e (the restore's event, its detail
// completed with what ended) in the same transaction.
func MarkRestored(ctx context.Context, tx *sql.Tx, r Restored, e audit.Event) error {
	for _, id := range r.Tokens {
		if _, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_reason = $2 WHERE id = $1`, id, EndedRestored); err != nil {
			return fmt.Errorf("mark the restored API tokens: %w", err)
		}
	}
	for _, id := range r.Clients {
		if _, err := tx.ExecContext(ctx, `UPDATE api_clients SET revoked_reason = $2 WHERE id = $1`, id, EndedRestored); err != nil {
			return fmt.Errorf("mark the restored backend clients: %w", err)
		}
	}
	e.Action, e.EntityType, e.Outcome = "backup.restore", "database", audit.Success
	if e.At.IsZero() {
		e.At = time.Now()
	}
	return audit.Record(ctx, tx, e)
}

// EnableRestored lets a backend client a restore ended ask for tokens again (an
// administrator's decision, on the copy that now serves the clinic); a client revoked by
// an administrator stays revoked.
func (c *Clients) EnableRestored(ctx context.Context, e audit.Event, id int64) (Client, error) {
	err := c.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE api_clients SET revoked_at = NULL, revoked_by = NULL, revoked_reason = ''
			WHERE id = $1 AND revoked_at IS NOT NULL AND revoked_reason = $2`, id, EndedRestored)
		if err != nil {
			return fmt.Errorf("enable client: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("api_client.not_restored")
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_client.enable", "api_client", strconv.FormatInt(id, 10), audit.Success, time.Now()
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Client{}, err
	}
	return c.Get(ctx, id)
}

// EndedByRestore are the ids of the backend clients a restore ended (and no one has enabled
// since), for the list of clients.
func (c *Clients) EndedByRestore(ctx context.Context) (map[int64]bool, error) {
	ids, err := database.Column[int64](c.DB.QueryContext(ctx, `SELECT id FROM api_clients WHERE revoked_at IS NOT NULL AND revoked_reason = $1`, EndedRestored))
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, err
}

// KeyUses counts what a key of the key file still protects in auth's tables: TOTP secrets it
// sealed (Reseal moves them to the current key) and unused recovery codes it keyed (only a
// new set of codes, or a second-factor reset, moves those).
func KeyUses(ctx context.Context, q database.Querier, id string) (totp, recovery int64, err error) {
	sealed := secret.SealedPrefix(id) + "%"
	if err = q.QueryRowContext(ctx, `SELECT COUNT(*) FROM user_totp WHERE secret LIKE $1`, sealed).Scan(&totp); err != nil {
		return 0, 0, fmt.Errorf("count TOTP secrets: %w", err)
	}
	if err = q.QueryRowContext(ctx, `SELECT COUNT(*) FROM user_recovery_codes WHERE used_at IS NULL AND code_hash LIKE $1`, id+":%").Scan(&recovery); err != nil {
		return 0, 0, fmt.Errorf("count recovery codes: %w", err)
	}
	return totp, recovery, nil
}

// RestoredDetail is the restore event's detail for what r ended.
func RestoredDetail(r Restored) string {
	return fmt.Sprintf("ended %d API tokens, %d backend clients (%s) and %d access tokens", len(r.Tokens), len(r.Clients), joinIDs(r.Clients), r.AccessTokens)
}

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ", ")
}
