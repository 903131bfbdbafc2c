package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/reminder"
	"emr/internal/settings"
)

// The access code's throttles (ADR 44): per client address block, and per record once a
// code names one, in AccessWindow. A refused try is not counted; a right one gives the
// record's try back.
const (
	AccessBlockLimit  = 10
	AccessRecordLimit = 5
	AccessWindow      = time.Hour
)

// CodeCheckBlockLimit is how many one-time codes an address block may check in AccessWindow
// (right or wrong): code ids are sequential, and each has its own five tries.
const CodeCheckBlockLimit = 30

// Sign-in ways, as a session keeps them.
const (
	ViaCode   = "code"
	ViaAccess = "access"
)

// recordsForAddress lists the records a one-time code sent to address may open: the
// records with that contact whose access is on, and the children (access on) whose guardian
// is the address or one of those records (a record with access off opens no child).
func (s *Store) recordsForAddress(ctx context.Context, q database.Querier, channel, address string) ([]auth.PortalRecord, error) {
	clinic, err := settings.ReadClinic(ctx, q)
	if err != nil {
		return nil, err
	}
	own, err := patient.ByContact(ctx, q, channel, address, clinic.CallingCode())
	if err != nil {
		return nil, err
	}
	var out []auth.PortalRecord
	for _, id := range own {
		on, err := enabled(ctx, q, id)
		if err != nil {
			return nil, err
		}
		if on {
			out = append(out, auth.PortalRecord{PatientID: id})
		}
	}
	// Only a record whose own access is on opens its children: revoking a parent's access
	// ends the parent's way to the child too.
	on := make([]int64, 0, len(out))
	for _, r := range out {
		on = append(on, r.PatientID)
	}
	key, err := guardianAddress(channel, address, clinic.CallingCode())
	if err != nil {
		return nil, err
	}
	children, err := s.children(ctx, q, `g.channel = $1 AND g.address = $2`, channel, key)
	if err != nil {
		return nil, err
	}
	for _, id := range on {
		more, err := s.children(ctx, q, `g.guardian_patient_id = $1`, id)
		if err != nil {
			return nil, err
		}
		children = append(children, more...)
	}
	// A guardian link lapses on the child's MajorityAge birthday.
	return s.minors(ctx, q, addChildren(out, children))
}

// addChildren adds the children not already opened (one link each, the first).
func addChildren(out, children []auth.PortalRecord) []auth.PortalRecord {
	for _, c := range children {
		if !slices.ContainsFunc(out, func(r auth.PortalRecord) bool { return r.PatientID == c.PatientID }) {
			out = append(out, c)
		}
	}
	return out
}

// children are the records (access on) whose guardian links match cond.
func (s *Store) children(ctx context.Context, q database.Querier, cond string, args ...any) ([]auth.PortalRecord, error) {
	rows, err := q.QueryContext(ctx, `SELECT g.patient_id, g.id, g.channel, g.address, COALESCE(g.guardian_patient_id, 0)
		FROM portal_guardians g JOIN portal_access a ON a.patient_id = g.patient_id WHERE `+cond+` ORDER BY g.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read guardian links: %w", err)
	}
	defer rows.Close()
	var out []auth.PortalRecord
	for rows.Next() {
		var r auth.PortalRecord
		var channel, address string
		var guardian int64
		if err := rows.Scan(&r.PatientID, &r.GuardianID, &channel, &address, &guardian); err != nil {
			return nil, fmt.Errorf("read guardian links: %w", err)
		}
		r.Guardian = guardianName(r.GuardianID, channel, address, guardian)
		out = append(out, r)
	}
	return out, rows.Err()
}

func enabled(ctx context.Context, q database.Querier, id int64) (bool, error) {
	var on bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM portal_access WHERE patient_id = $1)`, id).Scan(&on); err != nil {
		return false, fmt.Errorf("read portal access: %w", err)
	}
	return on, nil
}

// CodeRequest asks for a sign-in code by Channel to Address.
type CodeRequest struct {
	Channel  string `json:"channel"`
	Address  string `json:"address"`
	Language string `json:"language"`
}

// RequestCode sends a one-time code to the address when it opens a record, and answers the
// same either way (the code's id, to hand back with the code): nobody learns from it
// whether the address is known. Both ways are throttled alike.
func (s *Store) RequestCode(ctx context.Context, in CodeRequest, client string) (int64, error) {
	r := reminder.CodeRequest{Purpose: reminder.CodePortal, Channel: in.Channel, Address: in.Address, Language: in.Language, Client: client}
	to, err := reminder.NormaliseAddress(in.Channel, in.Address)
	if err != nil {
		return 0, err
	}
	records, err := s.recordsForAddress(ctx, s.DB, in.Channel, to)
	if err != nil {
		return 0, err
	}
	if len(records) == 0 {
		return s.Codes.SendDecoy(ctx, r)
	}
	if records[0].GuardianID == 0 {
		r.PatientID = records[0].PatientID
	}
	return s.Codes.SendCode(ctx, r, nil)
}

// SignedIn is what a sign-in answers: the new session's token (for its cookie) and the
// records it opens.
type SignedIn struct {
	Token   string
	Records []auth.PortalRecord
}

// VerifyCode signs in with the one-time code id: a right code starts a session opening the
// records its address opens now (ending the browser's old one, oldToken), each sign-in
// audited with its patient as actor. A wrong code is audited as a failed sign-in.
func (s *Store) VerifyCode(ctx context.Context, e audit.Event, id int64, code, oldToken string) (SignedIn, error) {
	var out SignedIn
	_, err := s.Codes.CheckCode(ctx, id, reminder.CodePortal, code, func(tx *sql.Tx, c reminder.Code) error {
		records, err := s.recordsForAddress(ctx, tx, c.Channel, c.Address)
		if err != nil {
			return err
		}
		if len(records) == 0 { // access revoked while the code was on its way
			return apperr.Conflict("reminder.code_expired")
		}
		out.Records = records
		if out.Token, err = s.createSession(ctx, tx, ViaCode, c.Address, e.Address, oldToken, records); err != nil {
			return err
		}
		return s.auditSignIn(ctx, tx, e, records, "portal:code "+mail.Mask(c.Channel, c.Address))
	})
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && (ae.Key == "reminder.code_wrong" || ae.Key == "reminder.code_expired") {
			f := e
			f.ActorName, f.Action, f.EntityType, f.EntityID, f.Outcome, f.At = "portal", "portal.sign_in", "patient_code", strconv.FormatInt(id, 10), audit.Failure, s.now()
			f.Detail = "one-time code refused: " + ae.Key
			if aerr := audit.Access(ctx, s.DB, f); aerr != nil {
				return out, aerr
			}
		}
		return SignedIn{}, err
	}
	return out, nil
}

// auditSignIn records a sign-in for each record it opens, its patient as actor (a guardian
// named in the credential).
func (s *Store) auditSignIn(ctx context.Context, tx *sql.Tx, e audit.Event, records []auth.PortalRecord, via string) error {
	now := s.now()
	for _, r := range records {
		ev := e
		ev.ActorID, ev.ActorName = 0, "patient:"+strconv.FormatInt(r.PatientID, 10)
		ev.Action, ev.EntityType, ev.EntityID, ev.PatientID, ev.Outcome, ev.At = "portal.sign_in", "patient", strconv.FormatInt(r.PatientID, 10), r.PatientID, audit.Success, now
		ev.Credential = via
		if r.Guardian != "" {
			ev.Credential = via + " " + r.Guardian
		}
		if err := audit.Record(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}

// AccessSignIn is signing in with an access code and the patient's birth date.
type AccessSignIn struct {
	Code      string `json:"code"`
	BirthDate string `json:"birth_date"`
}

// SignInWithAccess signs in with an access code and the birth date of its record: a session
// opening the record and the children it is a guardian of. Throttled per address block
// first, then per record; a wrong code or birth date answers the same
// (portal.access_wrong) and is audited, with the patient as actor when the code was right.
func (s *Store) SignInWithAccess(ctx context.Context, e audit.Event, in AccessSignIn, oldToken string, throttle *auth.Throttle) (SignedIn, error) {
	var v apperr.Validation
	code := normaliseAccessCode(in.Code)
	if len(code) != accessCodeLength {
		v.Add("code", "portal.access_code_format")
	}
	if _, err := time.Parse(time.DateOnly, in.BirthDate); err != nil {
		v.Add("birth_date", "validation.date_format")
	}
	if err := v.Err(); err != nil {
		return SignedIn{}, err
	}
	// The network's failures at every public check first (auth.PublicFailureLimit an hour,
	// across access codes, one-time codes and records); given back when the sign-in is
	// right or refused before any check.
	network := auth.AddressBlock(e.Address)
	if wait, err := throttle.TakeFailure(ctx, network); err != nil {
		return SignedIn{}, err
	} else if wait > 0 {
		return SignedIn{}, apperr.Throttled("portal.throttled", auth.Seconds(wait))
	}
	failed := true
	defer func() {
		if !failed {
			_ = throttle.GiveBackFailure(ctx, network)
		}
	}()
	block := "portal-access:" + network
	if wait, err := throttle.TakeMany(ctx, block, 1, AccessBlockLimit); err != nil {
		failed = false
		return SignedIn{}, err
	} else if wait > 0 {
		failed = false
		return SignedIn{}, apperr.Throttled("portal.throttled", auth.Seconds(wait))
	}
	now := s.now()
	var id int64
	for _, mac := range s.Ring.MACs(accessMACPurpose, []byte(code)) {
		err := s.DB.QueryRowContext(ctx, `SELECT patient_id FROM portal_access_codes WHERE code_mac = $1 AND expires_at > $2`, mac, now).Scan(&id)
		if err == nil {
			break
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return SignedIn{}, fmt.Errorf("look up an access code: %w", err)
		}
	}
	fail := func(actor, detail string) (SignedIn, error) {
		f := e
		f.ActorID, f.ActorName, f.Action, f.Outcome, f.At, f.Detail = 0, actor, "portal.sign_in", audit.Failure, now, detail
		if id != 0 {
			f.EntityType, f.EntityID, f.PatientID = "patient", strconv.FormatInt(id, 10), id
		}
		if err := audit.Access(ctx, s.DB, f); err != nil {
			return SignedIn{}, err
		}
		return SignedIn{}, apperr.Invalid("portal.access_wrong")
	}
	if id == 0 {
		return fail("portal", "access code unknown or expired")
	}
	recordKey := "portal-access-record:" + strconv.FormatInt(id, 10)
	wait, err := throttle.Take(ctx, recordKey, AccessRecordLimit)
	if err != nil {
		return SignedIn{}, err
	}
	if wait > 0 {
		failed = false // refused before the birth date was checked
		return SignedIn{}, apperr.Throttled("portal.throttled", auth.Seconds(wait))
	}
	p, err := s.Patients.Get(ctx, id)
	if err != nil {
		return SignedIn{}, err
	}
	if p.Archived || p.BirthDate != in.BirthDate {
		return fail("patient:"+strconv.FormatInt(id, 10), "access code right, birth date wrong")
	}
	var out SignedIn
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		on, err := enabled(ctx, tx, id)
		if err != nil {
			return err
		}
		if !on {
			return apperr.Invalid("portal.access_wrong")
		}
		records := []auth.PortalRecord{{PatientID: id}}
		children, err := s.children(ctx, tx, `g.guardian_patient_id = $1`, id)
		if err != nil {
			return err
		}
		if out.Records, err = s.minors(ctx, tx, addChildren(records, children)); err != nil {
			return err
		}
		if out.Token, err = s.createSession(ctx, tx, ViaAccess, "", e.Address, oldToken, out.Records); err != nil {
			return err
		}
		if err := throttle.Reset(ctx, tx, recordKey); err != nil {
			return err
		}
		return s.auditSignIn(ctx, tx, e, out.Records, "portal:access")
	})
	if err != nil {
		return SignedIn{}, err
	}
	failed = false
	return out, nil
}

// SignOut ends p's session, audited for each record it opened.
func (s *Store) SignOut(ctx context.Context, e audit.Event, p *auth.PortalPrincipal) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.endSession(ctx, tx, p.TokenHash); err != nil {
			return err
		}
		now := s.now()
		for _, r := range p.Records {
			ev := s.actor(e, p, r)
			ev.Action, ev.EntityType, ev.EntityID, ev.PatientID, ev.Outcome, ev.At = "portal.sign_out", "patient", strconv.FormatInt(r.PatientID, 10), r.PatientID, audit.Success, now
			if err := audit.Record(ctx, tx, ev); err != nil {
				return err
			}
		}
		return nil
	})
}

// actor is e with record r's patient as its actor, the session's way in (and the guardian,
// when one opened it) as its credential.
func (s *Store) actor(e audit.Event, p *auth.PortalPrincipal, r auth.PortalRecord) audit.Event {
	e.ActorID, e.ActorName = 0, "patient:"+strconv.FormatInt(r.PatientID, 10)
	e.Credential = "portal:" + p.Via
	if p.Via == ViaCode {
		e.Credential += " " + mail.Mask(channelOf(p.Address), p.Address)
	}
	if r.Guardian != "" {
		e.Credential += " " + r.Guardian
	}
	e.PatientID = r.PatientID
	return e
}
