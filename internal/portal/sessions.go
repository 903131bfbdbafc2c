package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"emr/internal/apperr"
	"emr/internal/auth"
	"emr/internal/database"
)

// touchEvery limits the write that records a session's last use to once a minute.
const touchEvery = time.Minute

// createSession starts a portal session opening records, inside tx, and ends the session the
// browser came with (old, its cookie's token; "" none): a sign-in always gets a new token.
func (s *Store) createSession(ctx context.Context, tx *sql.Tx, via, address, client, old string, records []auth.PortalRecord) (string, error) {
	if old != "" {
		if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE token_hash = $1`, auth.HashPortalToken(old)); err != nil {
			return "", fmt.Errorf("end the old portal session: %w", err)
		}
	}
	token := auth.NewToken()
	hash := auth.HashPortalToken(token)
	now := s.now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO portal_sessions (token_hash, via, address, created_at, last_seen_at, expires_at, client)
		VALUES ($1, $2, $3, $4, $4, $5, $6)`, hash, via, address, now, now.Add(s.lifetime()), client); err != nil {
		return "", fmt.Errorf("start a portal session: %w", err)
	}
	for _, r := range records {
		var link any
		if r.GuardianID != 0 {
			link = r.GuardianID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO portal_session_records (token_hash, patient_id, guardian_id) VALUES ($1, $2, $3)`, hash, r.PatientID, link); err != nil {
			return "", fmt.Errorf("start a portal session: %w", err)
		}
	}
	// Ended sessions of anyone are swept here, at sign-in, rather than by a timer.
	if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE expires_at <= $1 OR last_seen_at <= $2`, now, now.Add(-s.idle())); err != nil {
		return "", fmt.Errorf("sweep portal sessions: %w", err)
	}
	return token, nil
}

// LookupPortal is the principal of a live portal session: its records whose access is
// still on. Unknown, idle too long, past its lifetime, or with no record left to open, it is
// portal.signed_out.
func (s *Store) LookupPortal(ctx context.Context, token string) (*auth.PortalPrincipal, error) {
	if token == "" {
		return nil, apperr.Unauthenticated("portal.signed_out")
	}
	now := s.now()
	p := &auth.PortalPrincipal{TokenHash: auth.HashPortalToken(token)}
	var lastSeen, expires time.Time
	err := s.DB.QueryRowContext(ctx, `SELECT via, address, last_seen_at, expires_at FROM portal_sessions WHERE token_hash = $1`, p.TokenHash).
		Scan(&p.Via, &p.Address, &lastSeen, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (!expires.After(now) || !lastSeen.After(now.Add(-s.idle())))) {
		return nil, apperr.Unauthenticated("portal.signed_out")
	}
	if err != nil {
		return nil, fmt.Errorf("look up a portal session: %w", err)
	}
	if p.Records, err = sessionRecords(ctx, s.DB, p.TokenHash); err != nil {
		return nil, err
	}
	// A child who has come of age since the sign-in drops out of the session.
	if p.Records, err = s.minors(ctx, s.DB, p.Records); err != nil {
		return nil, err
	}
	if len(p.Records) == 0 {
		return nil, apperr.Unauthenticated("portal.signed_out")
	}
	if now.Sub(lastSeen) > touchEvery {
		if _, err := s.DB.ExecContext(ctx, `UPDATE portal_sessions SET last_seen_at = $1 WHERE token_hash = $2`, now, p.TokenHash); err != nil {
			return nil, fmt.Errorf("touch a portal session: %w", err)
		}
	}
	return p, nil
}

// sessionRecords reads the records a session opens whose access is on, with the guardian
// link each was opened by; a child opened through a guardian's record only while that
// record's own access is on too.
func sessionRecords(ctx context.Context, q database.Querier, hash string) ([]auth.PortalRecord, error) {
	rows, err := q.QueryContext(ctx, `SELECT r.patient_id, COALESCE(g.id, 0), COALESCE(g.channel, ''), COALESCE(g.address, ''), COALESCE(g.guardian_patient_id, 0)
		FROM portal_session_records r JOIN portal_access a ON a.patient_id = r.patient_id
		LEFT JOIN portal_guardians g ON g.id = r.guardian_id
		LEFT JOIN portal_access ga ON ga.patient_id = g.guardian_patient_id
		WHERE r.token_hash = $1 AND (g.guardian_patient_id IS NULL OR ga.patient_id IS NOT NULL) ORDER BY r.guardian_id IS NOT NULL, r.patient_id`, hash)
	if err != nil {
		return nil, fmt.Errorf("read a portal session's records: %w", err)
	}
	defer rows.Close()
	var out []auth.PortalRecord
	for rows.Next() {
		var r auth.PortalRecord
		var channel, address string
		var guardian int64
		if err := rows.Scan(&r.PatientID, &r.GuardianID, &channel, &address, &guardian); err != nil {
			return nil, fmt.Errorf("read a portal session's records: %w", err)
		}
		r.Guardian = guardianName(r.GuardianID, channel, address, guardian)
		out = append(out, r)
	}
	return out, rows.Err()
}

// guardianName names a guardian for the audit log: by link, and by record or masked address.
func guardianName(link int64, channel, address string, guardian int64) string {
	switch {
	case link == 0:
		return ""
	case guardian != 0:
		return fmt.Sprintf("guardian:%d patient:%d", link, guardian)
	}
	return fmt.Sprintf("guardian:%d %s %s", link, channel, mask(channel, address))
}

// endSession ends the session whose token hashes to hash (signing out).
func (s *Store) endSession(ctx context.Context, tx *sql.Tx, hash string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE token_hash = $1`, hash); err != nil {
		return fmt.Errorf("end a portal session: %w", err)
	}
	return nil
}
