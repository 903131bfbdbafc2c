package auth

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/audit"
)

// Why a token ended: revoked by hand, or a remedy of its account — every remedy that ends
// the account's sessions ends its API tokens too, in the remedy's transaction (ADR 35).
const (
	EndedRevoked          = "revoked"
	EndedPasswordChanged  = "password_changed"
	EndedPasswordReset    = "password_reset"
	EndedDeactivated      = "deactivated"
	EndedTwoFactorChanged = "two_factor_changed"
	EndedTwoFactorReset   = "two_factor_reset"
)

// EndTokens ends, inside tx (the remedy's transaction), every live API token of userID for
// reason; with clients (the account deactivated), also the live access tokens of the backend
// clients it registered (the clients themselves stay: they are the clinic's systems, and
// the screen flags them for key rotation). One audit event, e's, names what ended; none is
// written when nothing was live. Every token lookup reads its row, so the end holds on
// every instance at the next request.
//
// It first counts up the account's credential epoch: a token whose maker was
// re-authenticated before the remedy is refused at its insert (APITokens.Create). On
// PostgreSQL the upsert also holds the account's epoch row until the remedy commits, and
// Create reads that row FOR SHARE in its own transaction: the insert either commits before
// this (and the UPDATE below, a later statement, ends the token) or waits for the remedy and
// sees the new epoch.
func EndTokens(ctx context.Context, tx *sql.Tx, e audit.Event, userID int64, reason string, clients bool) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO credential_epochs (user_id, epoch) VALUES ($1, 1)
		ON CONFLICT (user_id) DO UPDATE SET epoch = credential_epochs.epoch + 1`, userID); err != nil {
		return fmt.Errorf("count up the credential epoch: %w", err)
	}
	now := time.Now().UTC()
	var by any
	if e.ActorID != 0 {
		by = e.ActorID
	}
	rows, err := tx.QueryContext(ctx, `UPDATE api_tokens SET revoked_at = $1, revoked_by = $2, revoked_reason = $3
		WHERE user_id = $4 AND revoked_at IS NULL AND expires_at > $1 RETURNING id, name`, now, by, reason, userID)
	if err != nil {
		return fmt.Errorf("end api tokens: %w", err)
	}
	var ended []string
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return err
		}
		ended = append(ended, TokenCredential(id, name))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("end api tokens: %w", err)
	}
	if clients {
		named, err := endClientTokens(ctx, tx, userID, now)
		if err != nil {
			return err
		}
		ended = append(ended, named...)
	}
	if len(ended) == 0 {
		return nil
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "api_token.end", "user", strconv.FormatInt(userID, 10), audit.Success, now
	e.Detail = reason + ": " + strings.Join(ended, ", ")
	return audit.Record(ctx, tx, e)
}

// endClientTokens ends the live access tokens of the clients userID registered and names
// each client whose tokens ended.
func endClientTokens(ctx context.Context, tx *sql.Tx, userID int64, now time.Time) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT k.id, k.client_id, k.name, COUNT(*) FROM api_client_tokens t JOIN api_clients k ON k.id = t.client_id
		WHERE k.created_by = $1 AND t.expires_at > $2 GROUP BY k.id, k.client_id, k.name ORDER BY k.id`, userID, now)
	if err != nil {
		return nil, fmt.Errorf("read client tokens: %w", err)
	}
	var named []string
	for rows.Next() {
		var id int64
		var clientID, name string
		var n int
		if err := rows.Scan(&id, &clientID, &name, &n); err != nil {
			rows.Close()
			return nil, err
		}
		named = append(named, fmt.Sprintf("client:%s %q (%d access tokens)", clientID, name, n))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read client tokens: %w", err)
	}
	if len(named) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_client_tokens WHERE client_id IN (SELECT id FROM api_clients WHERE created_by = $1)`, userID); err != nil {
			return nil, fmt.Errorf("end client tokens: %w", err)
		}
	}
	return named, nil
}
