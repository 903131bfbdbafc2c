package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/mail"
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
		VALUES ($1, $2, $3, $4, $4, $5, $6)`, hash, via, address, now, now.Add(auth.PortalLifetime), client); err != nil {
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
	if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE expires_at <= $1 OR last_seen_at <= $2`, now, now.Add(-auth.PortalIdle)); err != nil {
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
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (!expires.After(now) || !lastSeen.After(now.Add(-auth.PortalIdle)))) {
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
	return fmt.Sprintf("guardian:%d %s %s", link, channel, mail.Mask(channel, address))
}

// endSession ends the session whose token hashes to hash (signing out).
func (s *Store) endSession(ctx context.Context, tx *sql.Tx, hash string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE token_hash = $1`, hash); err != nil {
		return fmt.Errorf("end a portal session: %w", err)
	}
	return nil
}

// SessionView is one live session of the records a patient opens as their own, as the portal
// lists it (ASVS 3.3.4): how it signed in, the masked address of a code, when, when last used.
type SessionView struct {
	ID       string    `json:"id"`  // a short name of the session (its key's first characters)
	Via      string    `json:"via"` // code or access
	Address  string    `json:"address"`
	Created  time.Time `json:"created_at"`
	LastSeen time.Time `json:"last_seen_at"`
	Current  bool      `json:"current"`
	hash     string
}

// sessionIDLength is how much of a session's key names it to its owner: enough to tell a
// dozen apart, too little to be the key (which is itself a hash of the cookie's token).
const sessionIDLength = 12

// ownSessions is the live sessions of p's credential: those that open one of p's own records
// (not through a guardian), wherever they signed in, and those signed in by a code to the same
// address as p (a guardian's, who has no record of their own here); p's own first.
func (s *Store) ownSessions(ctx context.Context, q database.Querier, p *auth.PortalPrincipal) ([]SessionView, error) {
	own := []int64{0} // no record has id 0: the list is never empty
	for _, r := range p.Records {
		if r.GuardianID == 0 {
			own = append(own, r.PatientID)
		}
	}
	address := ""
	if p.Via == ViaCode {
		address = p.Address
	}
	now := s.now()
	in, args := database.InIDs(q, "r.patient_id", own, 4)
	rows, err := q.QueryContext(ctx, `SELECT s.token_hash, s.via, s.address, s.created_at, s.last_seen_at FROM portal_sessions s
		WHERE s.expires_at > $1 AND s.last_seen_at > $2 AND ((s.via = 'code' AND s.address = $3 AND $3 <> '') OR EXISTS (SELECT 1 FROM portal_session_records r
		WHERE r.token_hash = s.token_hash AND r.guardian_id IS NULL AND `+in+`))
		ORDER BY s.last_seen_at DESC`, append([]any{now, now.Add(-auth.PortalIdle), address}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("list portal sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionView
	for rows.Next() {
		var v SessionView
		if err := rows.Scan(&v.hash, &v.Via, &v.Address, &v.Created, &v.LastSeen); err != nil {
			return nil, fmt.Errorf("list portal sessions: %w", err)
		}
		v.ID, v.Current = v.hash[:min(sessionIDLength, len(v.hash))], v.hash == p.TokenHash
		if v.Address != "" {
			v.Address = mail.Mask(channelOf(v.Address), v.Address)
		}
		if v.Current {
			out = append([]SessionView{v}, out...)
		} else {
			out = append(out, v)
		}
	}
	return out, rows.Err()
}

// Sessions lists the patient's live sessions (ownSessions), audited as the patient's read.
func (s *Store) Sessions(ctx context.Context, e audit.Event, p *auth.PortalPrincipal) ([]SessionView, error) {
	list, err := s.ownSessions(ctx, s.DB, p)
	if err != nil {
		return nil, err
	}
	return list, s.auditOwn(ctx, s.DB, e, p, "portal.sessions.read")
}

// EndOthers ends every other live session of the patient's own records (ASVS 3.3.4: a phone
// left signed in, a session someone else began with the patient's code), audited; it answers
// how many it ended.
func (s *Store) EndOthers(ctx context.Context, e audit.Event, p *auth.PortalPrincipal) (int, error) {
	n := 0
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		list, err := s.ownSessions(ctx, tx, p)
		if err != nil {
			return err
		}
		for _, v := range list {
			if v.Current {
				continue
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE token_hash = $1`, v.hash)
			if err != nil {
				return fmt.Errorf("end a portal session: %w", err)
			}
			k, _ := res.RowsAffected()
			n += int(k)
		}
		e.Detail = fmt.Sprintf("%d other sessions ended", n)
		return s.auditOwn(ctx, tx, e, p, "portal.sessions.end_others")
	})
	return n, err
}

// auditOwn records action on each of the records p opens, the patient (or the guardian) as
// actor.
func (s *Store) auditOwn(ctx context.Context, q database.Querier, e audit.Event, p *auth.PortalPrincipal, action string) error {
	now := s.now()
	for _, r := range p.Records {
		ev := s.actor(e, p, r)
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = action, "patient", strconv.FormatInt(r.PatientID, 10), audit.Success, now
		var err error
		if tx, ok := q.(*sql.Tx); ok {
			err = audit.Record(ctx, tx, ev)
		} else {
			err = audit.Access(ctx, s.DB, ev)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
