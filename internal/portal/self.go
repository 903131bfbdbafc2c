package portal

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/billing"
	"emr/internal/booking"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/release"
	"emr/internal/reminder"
	"emr/internal/settings"
)

// Record is a record a session opens, as the portal names it.
type Record struct {
	ID        int64  `json:"id"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	// Guardian: the session opens it as a guardian's (a child's record).
	Guardian bool `json:"guardian"`
}

// Session is what the portal page is told of its session.
type Session struct {
	SignedIn bool     `json:"signed_in"`
	Clinic   string   `json:"clinic"`
	Records  []Record `json:"records"`
	// IdleMinutes is how long the session may go unused.
	IdleMinutes int `json:"idle_minutes"`
}

// Describe names the records a session opens (none when signed out).
func (s *Store) Describe(ctx context.Context, records []auth.PortalRecord) (Session, error) {
	out := Session{SignedIn: len(records) > 0, Records: []Record{}, IdleMinutes: int(auth.PortalIdle / time.Minute)}
	clinic, err := settings.ReadClinic(ctx, s.DB)
	if err != nil {
		return out, err
	}
	out.Clinic = clinic.Name
	ids := make([]int64, len(records))
	for i, r := range records {
		ids[i] = r.PatientID
	}
	refs, err := patient.Summaries(ctx, s.DB, ids)
	if err != nil {
		return out, err
	}
	for _, r := range records {
		p := refs[r.PatientID]
		out.Records = append(out.Records, Record{ID: r.PatientID, FirstName: p.FirstName, LastName: p.LastName, Guardian: r.GuardianID != 0})
	}
	return out, nil
}

// Visit is an appointment as the portal shows it: when, with whom, its status; no reason,
// remarks or anything clinical.
type Visit struct {
	ID              int64     `json:"id"`
	StartsAt        time.Time `json:"starts_at"`
	Date            string    `json:"date"` // the clinic's day, YYYY-MM-DD
	Time            string    `json:"time"` // HH:MM
	DurationMinutes int       `json:"duration_minutes"`
	Doctor          string    `json:"doctor"`
	Status          string    `json:"status"`
	Confirmed       bool      `json:"confirmed"`
	// CanCancel: booked, and the clinic's cancellation window still open.
	CanCancel bool `json:"can_cancel"`
	// CanMove: CanCancel, and the clinic publishes the doctor's times of its type online.
	CanMove bool `json:"can_move"`
	Version int  `json:"version"`
}

// Visits are a record's appointments: upcoming (soonest first) and past (latest first).
type Visits struct {
	Upcoming    []Visit `json:"upcoming"`
	Past        []Visit `json:"past"`
	CancelHours int     `json:"cancel_hours"`
}

// maxVisits bounds the appointments a page lists.
const maxVisits = 50

// audit records a portal read of record r by p's session.
func (s *Store) audit(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, r auth.PortalRecord, action string) error {
	ev := s.actor(e, p, r)
	ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = action, "patient", strconv.FormatInt(r.PatientID, 10), audit.Success, s.now()
	return audit.Access(ctx, s.DB, ev)
}

// record is the record id of p's session, or portal.not_found: a record the session does
// not open is answered as one that does not exist.
func record(p *auth.PortalPrincipal, id int64) (auth.PortalRecord, error) {
	r, ok := p.Record(id)
	if !ok {
		return r, apperr.NotFound("portal.not_found")
	}
	return r, nil
}

// Appointments lists record id's appointments, audited as the patient's read.
func (s *Store) Appointments(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id int64) (Visits, error) {
	r, err := record(p, id)
	if err != nil {
		return Visits{}, err
	}
	set, err := reminder.ReadSettings(ctx, s.DB)
	if err != nil {
		return Visits{}, err
	}
	// In the adolescent's view (ADR 44) a past visit whose diagnoses are care given in person
	// (contraception, pregnancy, sexual health) is not listed: its date and doctor would tell
	// what the results, documents and bills leave out.
	limited, err := s.adolescent(ctx, id)
	if err != nil {
		return Visits{}, err
	}
	list, err := s.Book.List(ctx, appointment.ListQuery{PatientID: id, Page: 1, PerPage: maxVisits}, limited, "")
	if err != nil {
		return Visits{}, err
	}
	movable, err := s.Online.Movable(ctx)
	if err != nil {
		return Visits{}, err
	}
	now := s.now()
	out := Visits{Upcoming: []Visit{}, Past: []Visit{}, CancelHours: set.CancelHours}
	for _, a := range list.Data { // latest first
		if limited && slices.ContainsFunc(a.Diagnoses, func(d appointment.Diagnosis) bool { return release.DiagnosisSensitivity(d.Code, d.Text) != "" }) {
			continue
		}
		local := a.StartsAt.In(s.loc())
		v := Visit{ID: a.ID, StartsAt: a.StartsAt, Date: local.Format(time.DateOnly), Time: local.Format("15:04"), DurationMinutes: a.DurationMinutes,
			Doctor: a.DoctorName, Status: a.Status, Confirmed: a.ConfirmedAt != nil, Version: a.Version}
		v.CanCancel = a.Status == appointment.Booked && now.Add(time.Duration(set.CancelHours)*time.Hour).Before(a.StartsAt)
		v.CanMove = v.CanCancel && movable(a)
		if a.StartsAt.After(now) && (a.Status == appointment.Booked || a.Status == appointment.Cancelled) {
			out.Upcoming = append([]Visit{v}, out.Upcoming...)
		} else {
			out.Past = append(out.Past, v)
		}
	}
	return out, s.audit(ctx, e, p, r, "portal.appointments.read")
}

// Cancel cancels record id's booked appointment appt through the appointment book (its
// audit, messages and live event), the patient as actor, within the clinic's window.
func (s *Store) Cancel(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id, appt int64) error {
	r, err := record(p, id)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		a, _, err := s.changeable(ctx, tx, id, appt, "reminder.too_late_to_cancel")
		if err != nil {
			return err
		}
		_, err = s.Book.TransitionIn(ctx, tx, s.actor(e, p, r), appt, appointment.Cancel, a.Version, "cancelled by the patient in the portal")
		return err
	})
}

// changeable is record id's appointment appt when its patient may still cancel or move it:
// booked, and the clinic's cancellation window still open (else late, a conflict); with the
// window's hours.
func (s *Store) changeable(ctx context.Context, q database.Querier, id, appt int64, late string) (appointment.Appointment, time.Duration, error) {
	a, err := appointment.GetIn(ctx, q, appt)
	if (err == nil && a.PatientID != id) || errors.Is(err, apperr.ErrNotFound) {
		return a, 0, apperr.NotFound("portal.not_found")
	}
	if err != nil {
		return a, 0, err
	}
	if a.Status != appointment.Booked {
		return a, 0, apperr.Conflict("reminder.not_booked")
	}
	set, err := reminder.ReadSettings(ctx, q)
	if err != nil {
		return a, 0, err
	}
	window := time.Duration(set.CancelHours) * time.Hour
	if !s.now().Add(window).Before(a.StartsAt) {
		return a, 0, apperr.Conflict(late)
	}
	return a, window, nil
}

// MovesPerDay is how many times a patient may move one appointment in 24 hours: each move
// messages them and changes the doctor's day, so a session cannot reshuffle it without end.
const MovesPerDay = 3

// Times lists the times record id's appointment appt may move to (booking.Store.Moves): from
// the clinic's day from, for days days, beyond the cancellation window (a visit moved inside
// it could no longer be changed here), its own time left out.
func (s *Store) Times(ctx context.Context, p *auth.PortalPrincipal, id, appt int64, from string, days int) ([]booking.Slot, error) {
	if _, err := record(p, id); err != nil {
		return nil, err
	}
	a, window, err := s.changeable(ctx, s.DB, id, appt, "portal.too_late_to_move")
	if err != nil {
		return nil, err
	}
	list, err := s.Online.Moves(ctx, a, from, days)
	if err != nil {
		return nil, err
	}
	earliest := s.now().Add(window)
	out := []booking.Slot{}
	for _, slot := range list {
		if slot.StartsAt.After(earliest) && !slot.StartsAt.Equal(a.StartsAt) {
			out = append(out, slot)
		}
	}
	return out, nil
}

// MoveInput is the time a patient moves an appointment to, and the version they saw.
type MoveInput struct {
	StartsAt string `json:"starts_at"`
	Version  int    `json:"version"`
}

// Move moves record id's appointment appt to one of its Times through the appointment book
// (its checks, its audit with the patient as actor, the message of the new time, the queue's
// live event), keeping the visit's length; at most MovesPerDay times a day.
func (s *Store) Move(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id, appt int64, in MoveInput) error {
	r, err := record(p, id)
	if err != nil {
		return err
	}
	start, err := time.Parse(time.RFC3339, in.StartsAt)
	if err != nil {
		var v apperr.Validation
		v.Add("starts_at", "validation.datetime_format")
		return v.Err()
	}
	start = start.UTC()
	// Three moves of one visit a day, counted in the throttle's day window (swept with it); a
	// move refused for any reason gives its count back.
	moves, key := &auth.Throttle{DB: s.DB, Window: auth.DayWindow, Now: s.Now}, auth.DayKey+"portal-move:"+strconv.FormatInt(appt, 10)
	wait, err := moves.Take(ctx, key, MovesPerDay)
	if err != nil {
		return err
	}
	if wait > 0 {
		return apperr.Throttled("portal.too_many_moves", auth.Seconds(wait))
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		a, window, err := s.changeable(ctx, tx, id, appt, "portal.too_late_to_move")
		if err != nil {
			return err
		}
		if in.Version != a.Version {
			return apperr.Conflict("error.conflict")
		}
		if start.Equal(a.StartsAt) {
			var v apperr.Validation
			v.Add("starts_at", "portal.same_time")
			return v.Err()
		}
		if !start.After(s.now().Add(window)) {
			return apperr.Conflict("booking.slot_gone")
		}
		if err := s.Book.LockDoctor(ctx, tx, a.DoctorID); err != nil {
			return err
		}
		ok, err := s.Online.MayMove(ctx, tx, a, start)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Conflict("booking.slot_gone")
		}
		_, err = s.Book.UpdateIn(ctx, tx, s.actor(e, p, r), appt, a.Version, appointment.Input{PatientID: id, DoctorID: a.DoctorID,
			StartsAt: start.Format(time.RFC3339), DurationMinutes: a.DurationMinutes, Type: a.Type, Reason: a.Reason, Remarks: a.Remarks})
		return err
	})
	if err != nil {
		if back := moves.GiveBack(ctx, key); back != nil {
			return errors.Join(err, back)
		}
	}
	return err
}

// Receipt is a payment or a refund on a bill, as issued.
type Receipt struct {
	Kind   string        `json:"kind"` // payment or refund
	Method string        `json:"method"`
	Amount billing.Money `json:"amount"` // received, or given back (0: a credit note, nothing given back)
	// Credit is what a refund took off what the bill asks (a service not given).
	Credit billing.Money `json:"credit"`
	// StillOwed: a refund that credited nothing (ADR 27's "still owed"): money given back to
	// be paid another way, which the bill asks again. Never a credit.
	StillOwed bool      `json:"still_owed"`
	Receipt   string    `json:"receipt"`
	At        time.Time `json:"at"`
}

// Charge is a line of a bill: Amount is what it charges, after its own Discount.
type Charge struct {
	Description string        `json:"description"`
	Quantity    int64         `json:"quantity"`
	Discount    billing.Money `json:"discount"`
	Amount      billing.Money `json:"amount"`
}

// Bill is a bill as issued (final, or voided after), with its payments and refunds. Its
// figures add up as the page shows them: the lines' amounts come to Subtotal, less the
// bill's own Discount is Total; Total − Credited − Paid is Balance on a final bill.
type Bill struct {
	Number   string        `json:"number"`
	Status   string        `json:"status"`
	IssuedAt time.Time     `json:"issued_at"`
	Subtotal billing.Money `json:"subtotal"`
	Discount billing.Money `json:"discount"`
	Total    billing.Money `json:"total"`
	// Paid is what the patient paid less money given back; Credited what refunds for
	// services not given took off what the bill asks.
	Paid     billing.Money `json:"paid"`
	Credited billing.Money `json:"credited"`
	// Balance is what the bill still asks: nothing for a void bill, never a refunded amount.
	Balance  billing.Money `json:"balance"`
	Lines    []Charge      `json:"lines"`
	Receipts []Receipt     `json:"receipts"`
}

// Bills are a record's bills and what it owes, in the clinic's currency. Balance is what
// every bill of the record asks (billing.OwedBy), not only the bills listed; Issued is how
// many bills were issued to it, of which the newest (at most maxBills) are listed.
type Bills struct {
	Currency   string        `json:"currency"`
	MinorUnits int           `json:"minor_units"`
	Balance    billing.Money `json:"balance"`
	Issued     int           `json:"issued"`
	Bills      []Bill        `json:"bills"`
}

// maxBills bounds the bills a page lists (the newest).
const maxBills = 50

// BillsOf lists record id's issued bills, newest first, and what it owes on all of them, in
// lang; audited. In the adolescent's view (ADR 44) a line charging a sensitive test, medicine,
// device or care is named only by its kind of charge (hiddenLine).
func (s *Store) BillsOf(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id int64, lang string) (Bills, error) {
	r, err := record(p, id)
	if err != nil {
		return Bills{}, err
	}
	limited, err := s.adolescent(ctx, id)
	if err != nil {
		return Bills{}, err
	}
	set, err := billing.ReadSettings(ctx, s.DB)
	if err != nil {
		return Bills{}, err
	}
	out := Bills{Currency: set.Currency, MinorUnits: set.MinorUnits, Bills: []Bill{}}
	if out.Balance, out.Issued, err = billing.OwedBy(ctx, s.DB, id); err != nil {
		return Bills{}, err
	}
	list, err := s.Bills.ListBills(ctx, billing.BillQuery{PatientID: id, Page: 1, PerPage: maxBills})
	if err != nil {
		return Bills{}, err
	}
	var bills []billing.Bill
	var charged []int64
	for _, sum := range list.Data {
		if sum.FinalisedAt == nil || sum.Status == billing.Draft {
			continue // not issued
		}
		b, err := s.Bills.Get(ctx, sum.ID)
		if err != nil {
			return Bills{}, err
		}
		bills = append(bills, b)
		for _, l := range b.Lines {
			if l.LabOrderID != nil {
				charged = append(charged, *l.LabOrderID)
			}
		}
	}
	// In the adolescent's view a sensitive test, medicine, device or care is named by its kind
	// of charge alone: its amount stays, so that the bill still adds up; its name would tell
	// what the results and the prescriptions leave out.
	var sensitive map[int64]string
	if limited {
		if sensitive, err = s.Release.OrderSensitivities(ctx, id, charged); err != nil {
			return Bills{}, err
		}
	}
	for _, b := range bills {
		pb := portalBill(b)
		if limited {
			for i, l := range b.Lines {
				if release.MedicineSensitivity(l.Description) != "" || release.Sensitivity(l.Code, "", l.Description) != "" ||
					(l.LabOrderID != nil && sensitive[*l.LabOrderID] != "") {
					pb.Lines[i].Description = i18n.T(lang, hiddenLine(l))
				}
			}
		}
		out.Bills = append(out.Bills, pb)
	}
	return out, s.audit(ctx, e, p, r, "portal.bills.read")
}

// hiddenLine is the message key naming a line the adolescent's view hides by what kind of
// charge it is — a test charging an order, or the price list's category — never by what it
// was (the pharmacist's review: an IUD is no medicine, a counselling no test).
func hiddenLine(l billing.Line) string {
	if l.LabOrderID != nil {
		return "portal.bill.lab_test"
	}
	switch l.Category {
	case "laboratory":
		return "portal.bill.lab_test"
	case "consultation", "procedure", "imaging", "medicine", "certificate":
		return "portal.bill." + l.Category
	}
	return "portal.bill.other"
}

// portalBill is bill b as the portal shows it. The subtotal is what its lines come to (each
// after its own discount), and the discount the bill's own, so that the rows add up.
func portalBill(b billing.Bill) Bill {
	pb := Bill{Number: b.Number, Status: b.Status, IssuedAt: *b.FinalisedAt, Total: b.Total, Paid: b.Paid, Credited: b.Credited, Balance: b.Balance,
		Lines: []Charge{}, Receipts: []Receipt{}}
	for _, l := range b.Lines {
		pb.Lines = append(pb.Lines, Charge{Description: l.Description, Quantity: l.Quantity, Discount: l.Discount, Amount: l.Amount})
		pb.Subtotal += l.Amount
	}
	pb.Discount = pb.Subtotal - b.Total
	for _, pay := range b.Payments {
		pb.Receipts = append(pb.Receipts, Receipt{Kind: pay.Kind, Method: pay.Method, Amount: pay.Amount, Credit: pay.Credit,
			StillOwed: pay.StillOwed(), Receipt: pay.Receipt, At: pay.ReceivedAt})
	}
	return pb
}

// Contact is a record's contact details and reminder preferences as the portal shows them.
// Only Reminders and MessageLanguage are changed in the portal: the phone and e-mail are
// sign-in credentials, changed at the desk (ADR 44); CanChange is false for a guardian's
// session, which changes nothing of a child's contact.
type Contact struct {
	Phone           string `json:"phone"`
	Email           string `json:"email"`
	Reminders       string `json:"reminders"`
	MessageLanguage string `json:"message_language"`
	Version         int    `json:"version"`
	CanChange       bool   `json:"can_change"`
}

// ContactOf reads record id's contact details and reminder preferences; audited.
func (s *Store) ContactOf(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id int64) (Contact, error) {
	r, err := record(p, id)
	if err != nil {
		return Contact{}, err
	}
	pt, err := s.Patients.Get(ctx, id)
	if err != nil {
		return Contact{}, err
	}
	c := Contact{Phone: pt.Phone, Email: pt.Email, Reminders: pt.Reminders, MessageLanguage: pt.MessageLanguage, Version: pt.Version, CanChange: r.GuardianID == 0}
	return c, s.audit(ctx, e, p, r, "portal.contact.read")
}

// SaveContact writes record id's reminder preferences through the patient register (its
// checks, its audit with the patient as actor, its version: a stale form is a conflict; the
// messages waiting are re-written by ReachChanged). A phone or e-mail other than the
// record's is refused (portal.contact_at_desk; empty: unchanged), and a guardian's session
// changes nothing (portal.contact_guardian).
func (s *Store) SaveContact(ctx context.Context, e audit.Event, p *auth.PortalPrincipal, id int64, in Contact) (Contact, error) {
	r, err := record(p, id)
	if err != nil {
		return Contact{}, err
	}
	if r.GuardianID != 0 {
		return Contact{}, apperr.Forbidden("portal.contact_guardian")
	}
	pt, err := s.Patients.Get(ctx, id)
	if err != nil {
		return Contact{}, err
	}
	var v apperr.Validation
	if in.Phone != "" && in.Phone != pt.Phone {
		v.Add("phone", "portal.contact_at_desk")
	}
	if in.Email != "" && in.Email != pt.Email {
		v.Add("email", "portal.contact_at_desk")
	}
	if err := v.Err(); err != nil {
		return Contact{}, err
	}
	next := pt.Input
	next.Reminders, next.MessageLanguage = in.Reminders, in.MessageLanguage
	if next.Reminders == "" {
		next.Reminders = "none"
	}
	saved, err := s.Patients.Update(ctx, s.actor(e, p, r), id, in.Version, next)
	if err != nil {
		return Contact{}, err
	}
	return Contact{Phone: saved.Phone, Email: saved.Email, Reminders: saved.Reminders, MessageLanguage: saved.MessageLanguage, Version: saved.Version, CanChange: true}, nil
}
