// Package portal is the patient portal (ADR 44): a patient's access, turned on by the desk
// with an access code and guardian links; signing in by a one-time code or an access code
// and a birth date, into a session of its own; and what a signed-in patient may see and do
// for the records the session opens: appointments (cancel within the clinic's window),
// bills and payments, contact details and reminder preferences.
package portal

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/billing"
	"emr/internal/booking"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/release"
	"emr/internal/reminder"
	"emr/internal/secret"
	"emr/internal/settings"
	"emr/internal/textsearch"
)

// Store keeps the portal's access, guardians and sessions, and reads a record's appointments,
// bills and contact through their owners.
type Store struct {
	DB       *database.DB
	Ring     *secret.Ring
	Loc      *time.Location
	Now      func() time.Time
	Codes    *reminder.Service
	Patients *patient.Store
	Book     *appointment.Store
	// Online is the clinic's online booking: the times a patient may move a visit to.
	Online *booking.Store
	Bills  *billing.Store
	// Release judges what a patient may see of their results and documents (ADR 45).
	Release *release.Store
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Store) loc() *time.Location {
	if s.Loc == nil {
		return time.UTC
	}
	return s.Loc
}

// Access codes: 12 characters of an alphabet without look-alikes (0/O, 1/I/L), 60 bits,
// written in three groups of four; valid AccessCodeLifetime, kept only as a keyed hash.
const (
	codeAlphabet       = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	accessCodeLength   = 12
	AccessCodeLifetime = 90 * 24 * time.Hour
	accessMACPurpose   = "patient portal access code"
)

// newAccessCode is a random access code, grouped for reading ("ABCD-EFGH-JKMN").
func newAccessCode() (string, error) {
	var b strings.Builder
	for i := range accessCodeLength {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(codeAlphabet))))
		if err != nil {
			return "", fmt.Errorf("make an access code: %w", err)
		}
		b.WriteByte(codeAlphabet[n.Int64()])
	}
	return b.String(), nil
}

// normaliseAccessCode is a code as typed, its separators dropped and in upper case.
func normaliseAccessCode(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return -1
	}, s)
}

// Guardian is a link that lets a guardian open a child's record.
type Guardian struct {
	ID int64 `json:"id"`
	// Channel is "email", "sms" or "patient" (another record's portal).
	Channel string `json:"channel"`
	// Address is the masked e-mail or phone number; PatientID, Name and MRN the guardian's
	// record (0 and empty for an address).
	Address   string    `json:"address"`
	PatientID int64     `json:"patient_id"`
	Name      string    `json:"name"`
	MRN       string    `json:"mrn"`
	CreatedAt time.Time `json:"created_at"`
}

// Status is a record's portal access as the chart shows it.
type Status struct {
	Enabled   bool       `json:"enabled"`
	InvitedAt *time.Time `json:"invited_at"`
	// LiveCodes is how many access codes still open the record; Sessions how many portal
	// sessions may open it now.
	LiveCodes int        `json:"live_codes"`
	Sessions  int        `json:"sessions"`
	Guardians []Guardian `json:"guardians"`
}

// Invitation is what an invite answers: the access code, shown once.
type Invitation struct {
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expires_at"`
	Status    Status    `json:"status"`
}

// StatusOf reads patient id's portal access.
func (s *Store) StatusOf(ctx context.Context, q database.Querier, id int64) (Status, error) {
	st := Status{Guardians: []Guardian{}}
	var invited sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT invited_at FROM portal_access WHERE patient_id = $1`, id).Scan(&invited)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("read portal access: %w", err)
	}
	if invited.Valid {
		st.Enabled, st.InvitedAt = true, &invited.Time
	}
	now := s.now()
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM portal_access_codes WHERE patient_id = $1 AND expires_at > $2`, id, now).Scan(&st.LiveCodes); err != nil {
		return st, fmt.Errorf("count access codes: %w", err)
	}
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM portal_session_records r JOIN portal_sessions s ON s.token_hash = r.token_hash
		WHERE r.patient_id = $1 AND s.expires_at > $2 AND s.last_seen_at > $3`, id, now, now.Add(-auth.PortalIdle)).Scan(&st.Sessions); err != nil {
		return st, fmt.Errorf("count portal sessions: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT id, channel, address, COALESCE(guardian_patient_id, 0), created_at FROM portal_guardians WHERE patient_id = $1 ORDER BY id`, id)
	if err != nil {
		return st, fmt.Errorf("read guardians: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var g Guardian
		if err := rows.Scan(&g.ID, &g.Channel, &g.Address, &g.PatientID, &g.CreatedAt); err != nil {
			return st, fmt.Errorf("read guardians: %w", err)
		}
		if g.PatientID != 0 {
			ids = append(ids, g.PatientID)
		} else {
			g.Address = mail.Mask(g.Channel, g.Address)
		}
		st.Guardians = append(st.Guardians, g)
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	rows.Close()
	refs, err := patient.Summaries(ctx, q, ids)
	if err != nil {
		return st, err
	}
	for i, g := range st.Guardians {
		if g.PatientID != 0 {
			ref := refs[g.PatientID]
			st.Guardians[i].Name, st.Guardians[i].MRN = i18n.PersonName("en", ref.FirstName, ref.MiddleName, ref.LastName), ref.MRN
		}
	}
	return st, nil
}

// channelOf is the channel of a sign-in address: an e-mail has an @, else it is a phone.
func channelOf(address string) string {
	if strings.Contains(address, "@") {
		return mail.Email
	}
	return mail.SMS
}

// Invite turns patient id's access on (or keeps it on) and makes a new access code, shown
// once: earlier codes stay valid until they expire or access is revoked.
func (s *Store) Invite(ctx context.Context, e audit.Event, id int64) (Invitation, error) {
	var inv Invitation
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		p, err := s.Patients.GetIn(ctx, tx, id)
		if err != nil {
			return err
		}
		if p.Archived {
			return apperr.Conflict("patient.archived")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO portal_access (patient_id, invited_at, invited_by) VALUES ($1, $2, $3)
			ON CONFLICT (patient_id) DO NOTHING`, id, now, e.Actor()); err != nil {
			return fmt.Errorf("turn portal access on: %w", err)
		}
		if inv.Code, inv.ExpiresAt, err = s.issueCode(ctx, tx, id, e.ActorID); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "portal.invite", "patient", strconv.FormatInt(id, 10), id, audit.Success, now
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		inv.Status, err = s.StatusOf(ctx, tx, id)
		return err
	})
	return inv, err
}

// issueCode writes a new access code for patient id, inside tx.
func (s *Store) issueCode(ctx context.Context, tx *sql.Tx, id, by int64) (string, time.Time, error) {
	code, err := newAccessCode()
	if err != nil {
		return "", time.Time{}, err
	}
	now := s.now()
	expires := now.Add(AccessCodeLifetime)
	var creator any
	if by != 0 {
		creator = by
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO portal_access_codes (patient_id, code_mac, created_at, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		id, s.Ring.MAC(accessMACPurpose, []byte(normaliseAccessCode(code))), now, creator, expires); err != nil {
		return "", time.Time{}, fmt.Errorf("write an access code: %w", err)
	}
	// Expired codes of anyone are swept here.
	if _, err := tx.ExecContext(ctx, `DELETE FROM portal_access_codes WHERE expires_at <= $1`, now); err != nil {
		return "", time.Time{}, fmt.Errorf("sweep access codes: %w", err)
	}
	return code, expires, nil
}

// PrintedCode makes, inside the caller's transaction, a new access code for a document
// printed for patient id (a visit summary), when the record's portal access is on: "" when
// it is off. by is the user printing.
func (s *Store) PrintedCode(ctx context.Context, tx *sql.Tx, id, by int64) (string, error) {
	var on bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM portal_access WHERE patient_id = $1)`, id).Scan(&on); err != nil {
		return "", fmt.Errorf("read portal access: %w", err)
	}
	if !on {
		return "", nil
	}
	code, _, err := s.issueCode(ctx, tx, id, by)
	return code, err
}

// Revoke turns patient id's access off: its access codes end, and every portal session that
// may open the record ends at once (a guardian's too). Guardian links are kept, inactive.
func (s *Store) Revoke(ctx context.Context, e audit.Event, id int64) (Status, error) {
	var st Status
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.Patients.GetIn(ctx, tx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM portal_access WHERE patient_id = $1`, id)
		if err != nil {
			return fmt.Errorf("turn portal access off: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("portal.not_enabled")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM portal_access_codes WHERE patient_id = $1`, id); err != nil {
			return fmt.Errorf("end access codes: %w", err)
		}
		if err := endSessionsOf(ctx, tx, id); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "portal.revoke", "patient", strconv.FormatInt(id, 10), id, audit.Success, s.now()
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		st, err = s.StatusOf(ctx, tx, id)
		return err
	})
	return st, err
}

// endSessionsOf ends every portal session that may open patient id.
func endSessionsOf(ctx context.Context, tx *sql.Tx, id int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM portal_sessions WHERE token_hash IN (SELECT token_hash FROM portal_session_records WHERE patient_id = $1)`, id); err != nil {
		return fmt.Errorf("end portal sessions: %w", err)
	}
	return nil
}

// GuardianInput links a guardian: Channel "email" or "sms" with Address, or "patient" with
// PatientID (another record).
type GuardianInput struct {
	Channel   string `json:"channel"`
	Address   string `json:"address"`
	PatientID int64  `json:"patient_id"`
}

// guardianAddress is how a guardian's address is kept and compared: an e-mail in lower
// case, a phone number by the line it reaches (textsearch.PhoneIdentity with the clinic's
// calling code home), never by its national digits alone.
func guardianAddress(channel, address, home string) (string, error) {
	a, err := reminder.NormaliseAddress(channel, address)
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			var v apperr.Validation
			v.Add("address", ae.Key)
			return "", v.Err()
		}
		return "", err
	}
	if channel == mail.SMS {
		return textsearch.PhoneIdentity(a, home), nil
	}
	return a, nil
}

// LinkGuardian lets a guardian open child's record.
func (s *Store) LinkGuardian(ctx context.Context, e audit.Event, child int64, in GuardianInput) (Status, error) {
	var st Status
	var address string
	var guardian any
	switch in.Channel {
	case mail.Email, mail.SMS:
		clinic, err := settings.ReadClinic(ctx, s.DB)
		if err != nil {
			return st, err
		}
		a, err := guardianAddress(in.Channel, in.Address, clinic.CallingCode())
		if err != nil {
			return st, err
		}
		address = a
	case "patient":
		if in.PatientID <= 0 || in.PatientID == child {
			var v apperr.Validation
			v.Add("patient_id", "portal.guardian_self")
			return st, v.Err()
		}
		guardian = in.PatientID
	default:
		var v apperr.Validation
		v.Add("channel", "validation.invalid_choice")
		return st, v.Err()
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		p, err := s.Patients.GetIn(ctx, tx, child)
		if err != nil {
			return err
		}
		if p.Archived {
			return apperr.Conflict("patient.archived")
		}
		if in.Channel == "patient" {
			g, err := s.Patients.GetIn(ctx, tx, in.PatientID)
			if errors.Is(err, apperr.ErrNotFound) {
				var v apperr.Validation
				v.Add("patient_id", "patient.not_found")
				return v.Err()
			}
			if err != nil {
				return err
			}
			if g.Archived {
				return apperr.Conflict("patient.archived")
			}
		}
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM portal_guardians WHERE patient_id = $1 AND channel = $2 AND address = $3
			AND COALESCE(guardian_patient_id, 0) = $4)`, child, in.Channel, address, in.PatientID).Scan(&exists); err != nil {
			return fmt.Errorf("read guardians: %w", err)
		}
		if exists {
			return apperr.Conflict("portal.guardian_exists")
		}
		now := s.now()
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO portal_guardians (patient_id, channel, address, guardian_patient_id, created_at, created_by)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, child, in.Channel, address, guardian, now, e.Actor()).Scan(&id); err != nil {
			return fmt.Errorf("link a guardian: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "portal.guardian.link", "patient", strconv.FormatInt(child, 10), child, audit.Success, now
		e.Detail = "guardian link " + strconv.FormatInt(id, 10) + " (" + in.Channel + ")"
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		if err := s.tellGuardiansChanged(ctx, tx, child); err != nil {
			return err
		}
		st, err = s.StatusOf(ctx, tx, child)
		return err
	})
	return st, err
}

// UnlinkGuardian removes a guardian link of child's record: a session the guardian signed in
// with no longer opens the child (the session's record goes with the link).
func (s *Store) UnlinkGuardian(ctx context.Context, e audit.Event, child, link int64) (Status, error) {
	var st Status
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM portal_session_records WHERE guardian_id = $1`, link); err != nil {
			return fmt.Errorf("end a guardian's reach: %w", err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM portal_guardians WHERE id = $1 AND patient_id = $2`, link, child)
		if err != nil {
			return fmt.Errorf("unlink a guardian: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("portal.guardian_not_found")
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome, e.At = "portal.guardian.unlink", "patient", strconv.FormatInt(child, 10), child, audit.Success, s.now()
		e.Detail = "guardian link " + strconv.FormatInt(link, 10)
		if err := audit.Record(ctx, tx, e); err != nil {
			return err
		}
		if err := s.tellGuardiansChanged(ctx, tx, child); err != nil {
			return err
		}
		st, err = s.StatusOf(ctx, tx, child)
		return err
	})
	return st, err
}

// GuardianContact is a guardian linked to a child, as another domain reaches the family: an
// address (Channel "email" or "sms", unmasked) or the guardian's own record (Channel
// "patient", PatientID).
type GuardianContact struct {
	Channel   string
	Address   string
	PatientID int64
}

// GuardiansOf reads, in q, the guardians linked to patient child, oldest link first (the
// immunisation reminders reach a child's family through them; the stores hand it over).
func GuardiansOf(ctx context.Context, q database.Querier, child int64) ([]GuardianContact, error) {
	rows, err := q.QueryContext(ctx, `SELECT channel, address, COALESCE(guardian_patient_id, 0) FROM portal_guardians WHERE patient_id = $1 ORDER BY id`, child)
	if err != nil {
		return nil, fmt.Errorf("read the child's guardians: %w", err)
	}
	defer rows.Close()
	var out []GuardianContact
	for rows.Next() {
		var g GuardianContact
		if err := rows.Scan(&g.Channel, &g.Address, &g.PatientID); err != nil {
			return nil, fmt.Errorf("read the child's guardians: %w", err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}
