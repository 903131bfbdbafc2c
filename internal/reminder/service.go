package reminder

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/secret"
	"emr/internal/settings"
	"emr/internal/user"
)

// The outbox topics of appointment messages (topic_id: the appointment).
const (
	TopicBooked    = "appointment.booked"
	TopicChanged   = "appointment.changed"
	TopicCancelled = "appointment.cancelled"
	TopicReminder  = "appointment.reminder"
)

// Topics are every appointment message's topic.
var Topics = []string{TopicBooked, TopicChanged, TopicCancelled, TopicReminder}

// LogTopics are what the message log shows: the appointment messages and the one-time codes
// (never their text), so the desk can see whether a patient's code went.
var LogTopics = append(slices.Clone(Topics), TopicCode, TopicBookingDeclined, TopicContactChanged, TopicImmunisationDue)

// The topics of the patient messages other packages write, listed in the message log too: an
// online booking declined (internal/booking), and a portal's sign-in address changed, told to
// the old one (internal/portal).
const (
	TopicBookingDeclined = "booking.declined"
	TopicContactChanged  = "patient.contact_changed"
	// TopicImmunisationDue is a reminder of a child's vaccinations due (internal/immunisation's
	// TopicDue, named here since that package reads this one).
	TopicImmunisationDue = "immunisation.due"
)

// Service writes appointment messages; its Changed is the appointment store's hook.
type Service struct {
	DB   *database.DB
	Loc  *time.Location
	Ring *secret.Ring
	// BaseURL is where links point when the clinic has set no public address.
	BaseURL string
	// CanSend says whether a sender for a channel is configured (--smtp-url, --sms-url); nil:
	// both are. A message for a channel without one is kept as failed, with the reason.
	CanSend func(channel string) bool
	Now     func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) loc() *time.Location {
	if s.Loc == nil {
		return time.UTC
	}
	return s.Loc
}

// Changed writes, inside tx, what the patient is told of a booking (old nil), a new time or
// doctor, or a cancellation, and the reminders; any change withdraws the messages still
// waiting that it made untrue (a reminder for a moved or cancelled appointment never goes).
func (s *Service) Changed(ctx context.Context, tx *sql.Tx, old *appointment.Appointment, a appointment.Appointment) error {
	now := s.now()
	var topic string
	switch {
	case old == nil && a.Status == appointment.Booked:
		topic = TopicBooked
	case old == nil:
		return nil // a visit registered as arrived or later: nothing to tell
	case old.Status != a.Status && a.Status == appointment.Cancelled:
		topic = TopicCancelled
	case old.Status != a.Status:
		// Arrived, seen, no-show: the reminders still waiting have nothing left to say, and
		// the links can no longer confirm or cancel.
		if _, err := mail.Cancel(ctx, tx, now, []string{TopicReminder}, a.ID); err != nil {
			return err
		}
		return supersede(ctx, tx, a.ID, now)
	case !old.StartsAt.Equal(a.StartsAt) || old.DoctorID != a.DoctorID:
		topic = TopicChanged
	default:
		return nil // a remark, the reason, the length: the patient's message still holds
	}
	if old != nil {
		if _, err := mail.Cancel(ctx, tx, now, Topics, a.ID); err != nil {
			return err
		}
		if err := supersede(ctx, tx, a.ID, now); err != nil {
			return err
		}
	}
	if !a.StartsAt.After(now) {
		return nil // a visit recorded afterwards, or a walk-in: nobody is to be told
	}
	return s.write(ctx, tx, a, now, topic, true)
}

// write writes, inside tx, topic's message for a (none when topic is ""), and when reminders
// is set the reminders still to come, by the patient's channel and language as they are now.
func (s *Service) write(ctx context.Context, tx *sql.Tx, a appointment.Appointment, now time.Time, topic string, reminders bool) error {
	set, err := ReadSettings(ctx, tx)
	if err != nil {
		return err
	}
	who, err := patient.ReachOf(ctx, tx, a.PatientID)
	if err != nil {
		return err
	}
	if who.Reminders != mail.Email && who.Reminders != mail.SMS {
		return nil // the patient wants none
	}
	if !set.Sends(who.Reminders) {
		return nil // the clinic does not send by that channel
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return err
	}
	lang := who.Language
	if lang == "" {
		lang = set.Language
	}
	doctors, err := user.Names(ctx, tx, []int64{a.DoctorID})
	if err != nil {
		return err
	}
	c := composer{lang: lang, clinic: oneLine(clinic.Name), base: s.base(clinic), loc: s.loc(), sms: who.Reminders == mail.SMS,
		name: oneLine(who.FirstName), doctor: oneLine(doctors[a.DoctorID])}
	to := who.Email
	if c.sms {
		to = who.Phone
	}
	optOut, err := newLink(ctx, tx, s.Ring, a.ID, a.PatientID, ForOptOut, now, now.Add(OptOutLifetime))
	if err != nil {
		return err
	}
	write := func(topic string, due time.Time, dropped string) error {
		var token string
		if topic != TopicCancelled {
			if token, err = newLink(ctx, tx, s.Ring, a.ID, a.PatientID, ForAppointment, now, a.StartsAt); err != nil {
				return err
			}
		}
		subject, body := c.message(topic, a.StartsAt, token, optOut)
		m := mail.Message{Topic: topic, TopicID: a.ID, Channel: who.Reminders, PatientID: a.PatientID, To: to, Subject: subject, Body: body,
			DueAt: due, ExpiresAt: a.StartsAt, Dropped: dropped}
		if s.CanSend != nil && !s.CanSend(who.Reminders) {
			m.Unsendable = map[string]string{mail.Email: "no mail server is set (--smtp-url)", mail.SMS: "no SMS gateway is set (--sms-url)"}[who.Reminders]
		}
		return mail.Enqueue(ctx, tx, now, m)
	}
	if topic != "" {
		if err := write(topic, time.Time{}, ""); err != nil {
			return err
		}
	}
	if topic == TopicCancelled || !set.Reminders || !reminders {
		return nil
	}
	for _, d := range Schedule(set, s.loc(), a.StartsAt, now) {
		if topic == "" && d.Dropped != "" {
			continue // re-written reminders: the log already says why that one does not go
		}
		if err := write(TopicReminder, d.At, d.Dropped); err != nil {
			return err
		}
	}
	return nil
}

// PatientChanged is the patient store's hook for a change of the patient's reminders, phone,
// e-mail or message language, inside the change's transaction: every message still waiting
// for the patient is withdrawn and written again by the new settings and address (or not at
// all, for a patient who now wants none), and an upcoming appointment's reminders are written
// by them.
func (s *Service) PatientChanged(ctx context.Context, tx *sql.Tx, patientID int64) error {
	now := s.now()
	withdrawn, err := mail.WithdrawFor(ctx, tx, Topics, patientID)
	if err != nil {
		return err
	}
	upcoming, err := appointment.UpcomingOf(ctx, tx, patientID, now)
	if err != nil {
		return err
	}
	ids := upcoming
	for id := range withdrawn {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		a, err := appointment.GetIn(ctx, tx, id)
		if err != nil {
			return err
		}
		if !a.StartsAt.After(now) || (a.Status != appointment.Booked && a.Status != appointment.Cancelled) {
			continue // begun, or seen: what waited for it has nothing left to say
		}
		topic := ""
		for _, t := range withdrawn[id] {
			if t != TopicReminder {
				topic = t // the newest of the booking, change and cancellation messages waiting
			}
		}
		if a.Status == appointment.Cancelled && topic != TopicCancelled {
			continue
		}
		if err := s.write(ctx, tx, a, now, topic, a.Status == appointment.Booked); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) base(c settings.Clinic) string {
	if c.PublicURL != "" {
		return c.PublicURL
	}
	if s.BaseURL != "" {
		return strings.TrimRight(s.BaseURL, "/")
	}
	return "http://localhost:8080"
}

// oneLine collapses control characters (a line break, a tab, an escape) in a name written
// into a message to one space, so that a name cannot add lines of its own to it.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// LinkPath is where a message's link opens the patient's page.
const LinkPath = "/m/"

// composer writes one patient's messages in their language.
type composer struct {
	lang, clinic, base, name, doctor string
	loc                              *time.Location
	sms                              bool
}

// DateIn is a date as lang writes it in a message to a patient.
func DateIn(lang string, t time.Time) string { return i18n.DateIn(lang, t) }

// message is the subject (e-mail) and text of topic's message. An SMS says the clinic, the
// date, the time and the link, nothing clinical: no doctor, no reason, no specialty.
func (c composer) message(topic string, start time.Time, token, optOut string) (string, string) {
	local := start.In(c.loc)
	date, clock := DateIn(c.lang, local), local.Format("15:04")
	link := ""
	if token != "" {
		link = c.base + LinkPath + token
	}
	stop := c.base + LinkPath + optOut
	kind := strings.TrimPrefix(topic, "appointment.")
	if c.sms {
		return "", i18n.T(c.lang, "message.sms."+kind, c.clinic, date, clock, link, stop)
	}
	subject := i18n.T(c.lang, "message.subject."+kind, c.clinic, date, clock)
	body := i18n.T(c.lang, "message.email."+kind, c.clinic, date, clock, link, stop, c.name, c.doctor)
	return subject, body
}

// Resend puts a failed message back in the queue, audited as e's, if what it says still
// holds: its appointment is as it was when it was written (not cancelled, moved, given
// another doctor, begun or seen; a cancellation still cancelled and to come) and the patient
// still wants messages by its channel at its address. Otherwise 409, saying why.
func (s *Service) Resend(ctx context.Context, e audit.Event, id int64) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		m, err := mail.Resend(ctx, tx, Topics, id, now, func(m mail.Entry) error { return s.holds(ctx, tx, m, now) })
		if err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "message.resend", "message", strconv.FormatInt(id, 10), audit.Success, now
		if m.PatientID != nil {
			e.PatientID = *m.PatientID
		}
		e.Detail = m.Topic + " " + strconv.FormatInt(m.TopicID, 10) + " by " + m.Channel
		return audit.Record(ctx, tx, e)
	})
}

// holds says whether message m may still be sent now (nil), or why not.
func (s *Service) holds(ctx context.Context, tx *sql.Tx, m mail.Entry, now time.Time) error {
	a, err := appointment.GetIn(ctx, tx, m.TopicID)
	if err != nil {
		return apperr.Conflict("reminder.resend_stale")
	}
	want := appointment.Booked
	if m.Topic == TopicCancelled {
		want = appointment.Cancelled
	}
	if a.Status != want || !a.StartsAt.After(now) || (m.ExpiresAt != nil && !m.ExpiresAt.Equal(a.StartsAt)) {
		return apperr.Conflict("reminder.resend_stale")
	}
	newer, err := mail.Newer(ctx, tx, []string{TopicBooked, TopicChanged, TopicCancelled}, m.TopicID, m.ID)
	if err != nil {
		return err
	}
	if newer {
		return apperr.Conflict("reminder.resend_stale") // a later message told of a change since
	}
	set, err := ReadSettings(ctx, tx)
	if err != nil {
		return err
	}
	who, err := patient.ReachOf(ctx, tx, a.PatientID)
	if err != nil {
		return err
	}
	if who.Reminders != m.Channel || !set.Sends(m.Channel) {
		return apperr.Conflict("reminder.resend_channel_changed")
	}
	to := who.Email
	if m.Channel == mail.SMS {
		to = who.Phone
	}
	if strings.TrimSpace(to) != m.To {
		return apperr.Conflict("reminder.resend_address_changed")
	}
	return nil
}
