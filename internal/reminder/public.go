package reminder

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/settings"
)

// View is what a message's link page shows: the clinic, the appointment's date and time,
// and what the patient may still do. Nothing clinical.
type View struct {
	// State is StateOK, StateUsed, StateExpired or StateInvalid; the rest is empty unless ok
	// (a used link says what it was used for).
	State    string `json:"state"`
	Purpose  string `json:"purpose"`
	UsedFor  string `json:"used_for"`
	Language string `json:"language"`
	Clinic   string `json:"clinic"`
	Date     string `json:"date"` // YYYY-MM-DD, the clinic's
	Time     string `json:"time"` // HH:MM
	// Status is the appointment's: booked, cancelled, …; Confirmed whether the patient did.
	Status    string `json:"status"`
	Confirmed bool   `json:"confirmed"`
	// CanCancel is whether the clinic's cancellation window is still open.
	CanCancel   bool `json:"can_cancel"`
	CancelHours int  `json:"cancel_hours"`
}

// Signed reports whether token carries a valid MAC under the key file (no database read).
func (s *Service) Signed(token string) bool {
	_, ok := parseToken(s.Ring, token)
	return ok
}

// Open reads what token's page shows; a tampered, expired or used token says so and no more.
func (s *Service) Open(ctx context.Context, token string) (View, error) {
	p, ok := parseToken(s.Ring, token)
	if !ok {
		return View{State: StateInvalid}, nil
	}
	l, err := readLink(ctx, s.DB, p.id)
	if errors.Is(err, errNoLink) {
		return View{State: StateInvalid}, nil
	}
	if err != nil {
		return View{}, err
	}
	set, err := ReadSettings(ctx, s.DB)
	if err != nil {
		return View{}, err
	}
	who, err := patient.ReachOf(ctx, s.DB, l.PatientID)
	if err != nil {
		return View{}, err
	}
	v := View{Purpose: p.purpose, Language: who.Language, CancelHours: set.CancelHours}
	if v.Language == "" {
		v.Language = set.Language
	}
	switch {
	case l.UsedAt != nil:
		v.State, v.UsedFor = StateUsed, l.UsedFor
		return v, nil
	case !s.now().Before(l.ExpiresAt) || !l.ExpiresAt.Equal(p.expires):
		v.State = StateExpired
		return v, nil
	case p.purpose == ForOptOut:
		// Opting out needs no appointment: its page shows none (the link may be forwarded).
		clinic, err := settings.ReadClinic(ctx, s.DB)
		if err != nil {
			return View{}, err
		}
		v.State, v.Clinic = StateOK, clinic.Name
		return v, nil
	}
	a, err := appointment.GetIn(ctx, s.DB, l.AppointmentID)
	if err != nil {
		return View{}, err
	}
	clinic, err := settings.ReadClinic(ctx, s.DB)
	if err != nil {
		return View{}, err
	}
	local := a.StartsAt.In(s.loc())
	v.State, v.Clinic, v.Date, v.Time = StateOK, clinic.Name, local.Format(time.DateOnly), local.Format("15:04")
	v.Status, v.Confirmed = a.Status, a.ConfirmedAt != nil
	v.CanCancel = a.Status == appointment.Booked && s.now().Add(time.Duration(set.CancelHours)*time.Hour).Before(a.StartsAt)
	return v, nil
}

// Actions a patient takes from a link.
const (
	ActConfirm = "confirm"
	ActCancel  = "cancel"
	ActOptOut  = "optout"
)

// Act does what the patient chose on token's page, once: the token is used up in the same
// transaction as the change, audited with the patient as actor. A token not (or no longer)
// good refuses with reminder.link_invalid and changes nothing.
func (s *Service) Act(ctx context.Context, e audit.Event, token, act string, appointments *appointment.Store) error {
	p, ok := parseToken(s.Ring, token)
	if !ok || (p.purpose == ForOptOut && act != ActOptOut) {
		return apperr.Conflict("reminder.link_invalid")
	}
	now := s.now()
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		l, err := readLink(ctx, tx, p.id)
		if errors.Is(err, errNoLink) || (err == nil && (!l.ExpiresAt.Equal(p.expires) || !now.Before(l.ExpiresAt))) {
			return apperr.Conflict("reminder.link_invalid")
		}
		if err != nil {
			return err
		}
		if fresh, err := use(ctx, tx, l.ID, act, now); err != nil {
			return err
		} else if !fresh {
			return apperr.Conflict("reminder.link_invalid")
		}
		e.ActorID, e.ActorName = 0, "patient:"+strconv.FormatInt(l.PatientID, 10)
		e.Credential = "link:" + strconv.FormatInt(l.ID, 10)
		if act == ActConfirm || act == ActCancel {
			a, err := appointment.GetIn(ctx, tx, l.AppointmentID)
			if err != nil {
				return err
			}
			if a.Status != appointment.Booked {
				return apperr.Conflict("reminder.not_booked") // arrived, seen, missed or cancelled: the desk's
			}
		}
		switch act {
		case ActConfirm:
			_, err = appointments.ConfirmByPatientIn(ctx, tx, e, l.AppointmentID)
			return err
		case ActCancel:
			set, err := ReadSettings(ctx, tx)
			if err != nil {
				return err
			}
			a, err := appointment.GetIn(ctx, tx, l.AppointmentID)
			if err != nil {
				return err
			}
			if !now.Add(time.Duration(set.CancelHours) * time.Hour).Before(a.StartsAt) {
				return apperr.Conflict("reminder.too_late_to_cancel")
			}
			_, err = appointments.TransitionIn(ctx, tx, e, l.AppointmentID, appointment.Cancel, 0, "cancelled by the patient from a message")
			return err
		case ActOptOut:
			if _, err := s.cancelPending(ctx, tx, l.PatientID, now); err != nil {
				return err
			}
			return patient.OptOutIn(ctx, tx, e, l.PatientID, now)
		}
		return apperr.Invalid("validation.invalid_choice")
	})
}

// cancelPending withdraws the reminders still waiting for a patient who opted out.
func (s *Service) cancelPending(ctx context.Context, tx *sql.Tx, patientID int64, now time.Time) (int, error) {
	ids, err := appointment.UpcomingOf(ctx, tx, patientID, now)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		k, err := mail.Cancel(ctx, tx, now, Topics, id)
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}
