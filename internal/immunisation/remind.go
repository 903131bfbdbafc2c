package immunisation

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/settings"
)

// TopicDue is the outbox topic of a reminder to a child's family that doses are due
// (topic_id: the child's patient id).
const TopicDue = "immunisation.due"

// Reasons a child is skipped by a reminder, as codes the screen words.
const (
	SkipNotFound        = "not_found"        // no such patient, or archived
	SkipNothingDue      = "nothing_due"      // no dose due (or coming up within the days before) now
	SkipAlreadyReminded = "already_reminded" // every dose due was reminded of already
	SkipNoContact       = "no_contact"       // no channel the clinic sends by reaches the family
)

// MaxRemind is the most children one request reminds.
const MaxRemind = 500

// DueService writes the reminders of due doses to children's families into the outbox: from
// the list (Remind) and by the daily pass (Pass).
type DueService struct {
	DB  *database.DB
	Loc *time.Location
	// BaseURL is where the booking link points when the clinic has set no public address.
	BaseURL string
	// CanSend says whether a sender for a channel is configured; nil: both are.
	CanSend func(channel string) bool
	Now     func() time.Time
	// Messages reads the clinic's rules for its messages to patients (internal/reminder's
	// settings; the stores wire it, immunisation importing no domain above it); nil: both
	// channels, English, no quiet hours.
	Messages func(ctx context.Context, q database.Querier) (MessageRules, error)
	// Booking says whether the clinic takes bookings online (the message then links its
	// public page); nil: it does not.
	Booking func(ctx context.Context, q database.Querier) (bool, error)
	// Guardians reads the guardians linked to a child on the portal (internal/portal's, which
	// the stores wire: immunisation imports no domain above it), oldest first; nil: none.
	Guardians func(ctx context.Context, q database.Querier, child int64) ([]Guardian, error)
}

// Guardian is a guardian linked to a child: an address (Channel "email" or "sms") or the
// guardian's own record (Channel "patient", PatientID).
type Guardian struct {
	Channel   string
	Address   string
	PatientID int64
}

// MessageRules are what of the clinic's message settings a reminder follows.
type MessageRules struct {
	Email, SMS           bool
	Language             string
	QuietStart, QuietEnd string
}

// Sends says whether the clinic sends messages by channel.
func (r MessageRules) Sends(channel string) bool {
	return (channel == mail.Email && r.Email) || (channel == mail.SMS && r.SMS)
}

func (s *DueService) rules(ctx context.Context, q database.Querier) (MessageRules, error) {
	if s.Messages == nil {
		return MessageRules{Email: true, SMS: true, Language: "en"}, nil
	}
	return s.Messages(ctx, q)
}

func (s *DueService) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Today is the clinic's day now.
func (s *DueService) Today() string { return today(s.Loc, s.now()) }

// Skipped is a child no reminder was written for, and why.
type Skipped struct {
	PatientID int64  `json:"patient_id"`
	Reason    string `json:"reason"`
}

// RemindResult is what a reminder request did.
type RemindResult struct {
	Queued  int       `json:"queued"`
	Skipped []Skipped `json:"skipped"`
}

// Remind writes, as e's act, one reminder to each child's family naming the doses due (or
// coming up within the clinic's days before), each dose reminded of once ever.
func (s *DueService) Remind(ctx context.Context, e audit.Event, ids []int64) (RemindResult, error) {
	var v apperr.Validation
	switch {
	case len(ids) == 0:
		v.Add("patient_ids", "validation.required")
	case len(ids) > MaxRemind:
		v.Add("patient_ids", "validation.too_many")
	}
	if err := v.Err(); err != nil {
		return RemindResult{}, err
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := RemindResult{Skipped: []Skipped{}}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		out = RemindResult{Skipped: []Skipped{}}
		set, err := ReadDueSettings(ctx, tx)
		if err != nil {
			return err
		}
		now := s.now()
		for _, id := range ids {
			reason, err := s.remindOne(ctx, tx, id, set, now, "manual", e.ActorID)
			if err != nil {
				return err
			}
			if reason != "" {
				out.Skipped = append(out.Skipped, Skipped{PatientID: id, Reason: reason})
				continue
			}
			out.Queued++
			ev := e
			ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At, ev.PatientID = "immunisation.remind", "patient", strconv.FormatInt(id, 10), audit.Success, now, id
			if err := audit.Record(ctx, tx, ev); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// horizon is the last due day a reminder written on day today names.
func horizon(today string, set DueSettings) string {
	t, _ := time.Parse(time.DateOnly, today)
	return t.AddDate(0, 0, set.Reminders.DaysBefore).Format(time.DateOnly)
}

type dueDose struct {
	antigen  string
	dose     int
	dueOn    string
	schedule string
}

// remindOne writes child id's reminder inside tx; it answers why none was written ("" when one was).
func (s *DueService) remindOne(ctx context.Context, tx *sql.Tx, id int64, set DueSettings, now time.Time, how string, actor int64) (string, error) {
	day := today(s.Loc, now)
	found, err := patient.Records(ctx, tx, []int64{id})
	if err != nil {
		return "", err
	}
	p, ok := found[id]
	if !ok || p.Archived {
		return SkipNotFound, nil
	}
	first := p.FirstName
	rows, err := tx.QueryContext(ctx, `SELECT d.antigen, d.dose_number, d.due_on, d.schedule, r.patient_id FROM immunisation_due d
		LEFT JOIN immunisation_reminders r ON r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number
		WHERE d.patient_id = $1 AND d.due_on <= $2 AND (d.latest_on = '' OR d.latest_on >= $3) ORDER BY d.due_on, d.antigen`, id, horizon(day, set), day)
	if err != nil {
		return "", fmt.Errorf("read the child's due doses: %w", err)
	}
	var doses []dueDose
	reminded := 0
	for rows.Next() {
		var d dueDose
		var done sql.NullInt64
		if err := rows.Scan(&d.antigen, &d.dose, &d.dueOn, &d.schedule, &done); err != nil {
			rows.Close()
			return "", err
		}
		if done.Valid {
			reminded++
			continue
		}
		doses = append(doses, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch {
	case len(doses) == 0 && reminded > 0:
		return SkipAlreadyReminded, nil
	case len(doses) == 0:
		return SkipNothingDue, nil
	}
	msgSet, err := s.rules(ctx, tx)
	if err != nil {
		return "", err
	}
	to, err := s.contactOf(ctx, tx, id, set, msgSet)
	if err != nil {
		return "", err
	}
	if to.address == "" {
		return SkipNoContact, nil
	}
	// The key refuses a second reminder of a dose, also one written meanwhile by another
	// request or instance (it waits for that one's commit, then finds the row).
	var fresh []dueDose
	for _, d := range doses {
		res, err := tx.ExecContext(ctx, `INSERT INTO immunisation_reminders (patient_id, antigen, dose_number, channel, how, sent_at, created_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (patient_id, antigen, dose_number) DO NOTHING`, id, d.antigen, d.dose, to.channel, how, now, nullID(actor))
		if err != nil {
			return "", fmt.Errorf("record a reminder: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			fresh = append(fresh, d)
		}
	}
	if len(fresh) == 0 {
		return SkipAlreadyReminded, nil
	}
	lang := to.lang
	if lang == "" {
		lang = msgSet.Language
	}
	clinic, err := settings.ReadClinic(ctx, tx)
	if err != nil {
		return "", err
	}
	book, online := "", false
	if s.Booking != nil {
		if online, err = s.Booking(ctx, tx); err != nil {
			return "", err
		}
	}
	if online {
		base := clinic.PublicURL
		if base == "" {
			base = strings.TrimRight(s.BaseURL, "/")
		}
		if base != "" {
			book = base + "/book"
		}
	}
	stocked, err := stockedOf(ctx, tx)
	if err != nil {
		return "", err
	}
	subject, body := dueMessage(lang, to.channel == mail.SMS, flatLine(clinic.Name), flatLine(clinic.Phone), book, flatLine(first), fresh, stocked)
	m := mail.Message{Topic: TopicDue, TopicID: id, Channel: to.channel, PatientID: id, To: to.address, Subject: subject, Body: body}
	if s.CanSend != nil && !s.CanSend(to.channel) {
		m.Unsendable = map[string]string{mail.Email: "no mail server is set (--smtp-url)", mail.SMS: "no SMS gateway is set (--sms-url)"}[to.channel]
	}
	return "", mail.Enqueue(ctx, tx, now, m)
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// reach is where a child's reminder goes.
type reach struct {
	channel, address, lang string
	// optedOut: the record has a phone or an address and chose no messages.
	optedOut bool
}

// contactOf finds how a child's family is reached by a channel both the clinic's messages
// and its immunisation reminders send by: the child's own record's choice (a child's record
// usually holds a parent's phone), else a guardian linked to it on the portal (an address, or
// the guardian's own record and its choice). A record that chose no messages while it could be
// reached is not written to, nor are its guardians.
func (s *DueService) contactOf(ctx context.Context, tx *sql.Tx, id int64, set DueSettings, msgSet MessageRules) (reach, error) {
	sends := func(channel string) bool {
		return msgSet.Sends(channel) && slices.Contains(set.Reminders.Channels, channel)
	}
	own := func(pid int64) (reach, bool, error) {
		who, err := patient.ReachOf(ctx, tx, pid)
		if errors.Is(err, apperr.ErrNotFound) {
			return reach{}, false, nil
		}
		if err != nil {
			return reach{}, false, err
		}
		phone, email := strings.TrimSpace(who.Phone), strings.TrimSpace(who.Email)
		switch {
		case who.Reminders == mail.SMS && sends(mail.SMS) && phone != "":
			return reach{channel: mail.SMS, address: phone, lang: who.Language}, true, nil
		case who.Reminders == mail.Email && sends(mail.Email) && email != "":
			return reach{channel: mail.Email, address: email, lang: who.Language}, true, nil
		}
		optedOut := who.Reminders == "none" && (phone != "" || email != "")
		return reach{lang: who.Language, optedOut: optedOut}, false, nil
	}
	r, ok, err := own(id)
	if err != nil || ok {
		return r, err
	}
	if r.optedOut {
		// The family chose no messages on a record that could be reached: not its guardians
		// either (as the appointment messages keep a patient's "none").
		return reach{}, nil
	}
	childLang := r.lang
	if s.Guardians == nil {
		return reach{}, nil
	}
	links, err := s.Guardians(ctx, tx, id)
	if err != nil {
		return reach{}, err
	}
	for _, l := range links {
		switch {
		case l.Channel == "patient" && l.PatientID != 0:
			g, ok, err := own(l.PatientID)
			if err != nil {
				return reach{}, err
			}
			if ok {
				if childLang != "" {
					g.lang = childLang
				}
				return g, nil
			}
		case (l.Channel == mail.SMS || l.Channel == mail.Email) && sends(l.Channel) && strings.TrimSpace(l.Address) != "":
			return reach{channel: l.Channel, address: strings.TrimSpace(l.Address), lang: childLang}, nil
		}
	}
	return reach{}, nil
}

// dueMessage is the subject (e-mail) and text of a reminder: the clinic, the child's first
// name, the vaccines due from the first due day — a combination due on one day as one visit
// naming its product and antigens (GroupNext), a lone dose by its antigen — and how to book;
// nothing else of the record.
func dueMessage(lang string, sms bool, clinic, phone, book, child string, doses []dueDose, stocked []string) (string, string) {
	names := antigenNames(lang)
	var list []string
	first := doses[0].dueOn
	recs := make([]Recommendation, len(doses))
	for i, d := range doses {
		recs[i] = Recommendation{Antigen: d.antigen, DoseNumber: d.dose, DueOn: d.dueOn, Schedule: d.schedule,
			Vaccines: Default().ProductsFor(d.schedule, d.antigen)}
		first = min(first, d.dueOn)
	}
	sep := i18n.ListSeparator(lang)
	for _, v := range GroupNext(recs, stocked) {
		if len(v.Doses) == 1 || v.Vaccine == "" {
			for _, d := range v.Doses {
				list = append(list, i18n.T(lang, "immunisation.message.dose", names.of(d.Antigen), d.DoseNumber))
			}
			continue
		}
		var antigens []string
		for _, d := range v.Doses {
			antigens = append(antigens, names.of(d.Antigen))
		}
		product := v.Vaccine
		if p, ok := Default().Vaccine(v.Vaccine, lang); ok {
			product = p.Name
		}
		list = append(list, i18n.T(lang, "immunisation.message.product", product, strings.Join(antigens, sep)))
	}
	on, _ := time.Parse(time.DateOnly, first)
	date := messageDate(lang, on)
	vaccines := strings.Join(list, i18n.ListSeparator(lang))
	how := i18n.T(lang, "immunisation.message.call", phone)
	if phone == "" {
		how = ""
	}
	if book != "" {
		if how != "" {
			how += " "
		}
		how += i18n.T(lang, "immunisation.message.book", book)
	}
	if sms {
		return "", strings.TrimSpace(i18n.T(lang, "immunisation.message.sms", clinic, child, vaccines, date, how))
	}
	// How to stop them: the family is told whom to tell (the clinic records a family's choice
	// of no messages, which every reminder reads first). A text message has no room for it;
	// its clinic and phone say whom to answer.
	stop := i18n.T(lang, "immunisation.message.stop")
	if phone != "" {
		stop = i18n.T(lang, "immunisation.message.stop_phone", phone)
	}
	return i18n.T(lang, "immunisation.message.subject", clinic, child), i18n.T(lang, "immunisation.message.email", clinic, child, vaccines, date, how) + "\n" + stop + "\n"
}

// flatLine collapses control characters in a name written into a message to one space.
func flatLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}), " ")
}

// Pass writes the automatic reminders when the clinic's setting is on: every child with a dose
// due within the days before and not yet reminded of, outside the clinic's quiet hours for
// messages. It also goes on with a rebuild of the due rows requested and not finished. It
// returns how many reminders it wrote. The server runs it every PassEvery; a dose is reminded
// of once ever, so a pass run twice (or on two instances) writes nothing twice.
func (s *DueService) Pass(ctx context.Context) (int, error) {
	if _, err := RefreshAll(ctx, s.DB); err != nil {
		return 0, err
	}
	set, err := ReadDueSettings(ctx, s.DB)
	if err != nil || !set.Reminders.On {
		return 0, err
	}
	msgSet, err := s.rules(ctx, s.DB)
	if err != nil {
		return 0, err
	}
	now := s.now()
	if inQuiet(now.In(s.loc()), msgSet.QuietStart, msgSet.QuietEnd) {
		return 0, nil // the next pass after the quiet hours writes them
	}
	day := today(s.Loc, now)
	queued := 0
	var after int64
	for {
		ids, err := s.pending(ctx, after, horizon(day, set), day)
		if err != nil || len(ids) == 0 {
			return queued, err
		}
		err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
			for _, id := range ids {
				reason, err := s.remindOne(ctx, tx, id, set, now, "automatic", 0)
				if err != nil {
					return err
				}
				if reason == "" {
					queued++
				}
			}
			return nil
		})
		if err != nil {
			return queued, err
		}
		after = ids[len(ids)-1]
	}
}

// PassEvery is how often the server runs the automatic pass: it writes what falls due each
// day within hours of the day's start (after the quiet hours).
const PassEvery = time.Hour

func (s *DueService) loc() *time.Location {
	if s.Loc == nil {
		return time.UTC
	}
	return s.Loc
}

// pending is the next children (after id after, a batch) with a dose due by the horizon and
// not yet reminded of.
func (s *DueService) pending(ctx context.Context, after int64, until, day string) ([]int64, error) {
	return database.Column[int64](s.DB.QueryContext(ctx, `SELECT DISTINCT d.patient_id FROM immunisation_due d
		WHERE d.due_on <= $1 AND (d.latest_on = '' OR d.latest_on >= $2) AND d.patient_id > $3 AND d.archived = FALSE AND NOT (d.birth_date <= $4)
		AND NOT EXISTS (SELECT 1 FROM immunisation_reminders r WHERE r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number)
		ORDER BY d.patient_id LIMIT 100`, until, day, after, yearsBefore(day, ChildAgeLimit)))
}

// inQuiet says whether t (the clinic's time) falls in the quiet hours start–end ("21:00",
// "08:00"; equal: none).
func inQuiet(t time.Time, start, end string) bool {
	a, err1 := time.Parse("15:04", start)
	b, err2 := time.Parse("15:04", end)
	if err1 != nil || err2 != nil {
		return false
	}
	s, e, m := a.Hour()*60+a.Minute(), b.Hour()*60+b.Minute(), t.Hour()*60+t.Minute()
	switch {
	case s == e:
		return false
	case s < e:
		return m >= s && m < e
	}
	return m >= s || m < e
}

// messageDate is a date as lang writes it in a message to a family (as the appointment
// messages write theirs).
func messageDate(lang string, t time.Time) string { return i18n.DateIn(lang, t) }
