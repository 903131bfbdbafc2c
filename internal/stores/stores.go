// Package stores builds every store once, from the database and the clinic's settings, wired
// to each other the one way: the server and every command take them from here, so that no
// caller holds a store missing another's hooks.
package stores

import (
	"context"
	"time"

	"emr/internal/appointment"
	"emr/internal/billing"
	"emr/internal/booking"
	"emr/internal/catalogue"
	"emr/internal/charting"
	"emr/internal/dashboard"
	"emr/internal/database"
	"emr/internal/document"
	"emr/internal/feereport"
	"emr/internal/immunisation"
	"emr/internal/mail"
	"emr/internal/patient"
	"emr/internal/portal"
	"emr/internal/prescription"
	"emr/internal/profile"
	"emr/internal/release"
	"emr/internal/reminder"
	"emr/internal/result"
	"emr/internal/role"
	"emr/internal/secret"
	"emr/internal/settings"
	"emr/internal/user"
)

// Clinic is what of the clinic's configuration the stores are built with.
type Clinic struct {
	Loc *time.Location // the clinic's time zone (its days, a document's year); nil: the machine's
	// Ring keys and seals what the stores keep secret (portal codes, message links): the
	// server's key file. The commands, which open none, leave it nil.
	Ring *secret.Ring
	// BaseURL is where the links in patients' messages point when the clinic set no address.
	BaseURL string
	// Email and SMS say whether a mail server (--smtp-url) or an SMS gateway (--sms-url) is
	// configured: results tell clinicians by e-mail only then, and messages go only by a
	// configured channel.
	Email, SMS bool
	// Tell has writes tell patients of them: an appointment booked, moved or cancelled, a
	// record's addresses changed (the server). The commands leave it off: seeding and
	// exporting write no patient message.
	Tell bool
}

// Set is every store, built by New.
type Set struct {
	Settings      *settings.Store
	Roles         *role.Store
	Users         *user.Store
	Profiles      *profile.Store
	Codes         *catalogue.Store
	Patients      *patient.Store
	Appointments  *appointment.Store
	Results       *result.Store
	Prescriptions *prescription.Store
	Fees          *billing.Store
	Documents     *document.Store
	Charting      *charting.Store
	Messages      *reminder.Service // patients' messages: reminders, notices, one-time codes
	Releases      *release.Store
	Booking       *booking.Store
	Portal        *portal.Store
	Dashboard     *dashboard.Store
	Immunisations *immunisation.Store
	// DueReminders write the reminders of the immunisation due list (issue 59).
	DueReminders *immunisation.DueService
}

// New builds every store on db for clinic c, each handed the others it reads and the hooks
// it tells. It does no I/O.
func New(db *database.DB, c Clinic) *Set {
	loc := c.Loc
	if loc == nil {
		loc = time.Local
	}
	s := &Set{
		Settings:      &settings.Store{DB: db},
		Roles:         &role.Store{DB: db},
		Users:         &user.Store{DB: db, Keeps: result.KeepsLead},
		Profiles:      &profile.Store{DB: db},
		Codes:         &catalogue.Store{DB: db},
		Patients:      &patient.Store{DB: db, Loc: loc},
		Results:       &result.Store{DB: db, Email: c.Email, Loc: loc},
		Prescriptions: &prescription.Store{DB: db, Loc: loc},
	}
	s.Codes.HasResults = s.Results.HasResults
	s.Messages = &reminder.Service{DB: db, Loc: loc, Ring: c.Ring, BaseURL: c.BaseURL, CanSend: func(channel string) bool {
		return (channel == mail.Email && c.Email) || (channel == mail.SMS && c.SMS)
	}}
	s.Appointments = &appointment.Store{DB: db, Loc: loc, Codes: s.Codes, OrdersChanged: s.Results.SyncOrders}
	s.Booking = &booking.Store{DB: db, Loc: loc, Appointments: s.Appointments, Patients: s.Patients, Codes: s.Messages}
	s.Appointments.Occupied = s.Booking.Occupied // a held or requested online booking occupies its slot (ADR 43)
	// The fee store keeps the fee reports' day sums (the read model's) in each write's transaction.
	s.Fees = &billing.Store{DB: db, Loc: loc, Days: feereport.Book{}, Patients: s.Patients, Orders: visitOrders(s.Results), Ordered: s.Results.VisitsWithOrders}
	s.Results.Charges = s.Fees // a test ordered on a visit is charged on its bill (ADR 41)
	s.Documents = &document.Store{DB: db, Loc: loc, Codes: s.Codes, Visits: s.Appointments, Results: s.Results}
	s.Charting = &charting.Store{DB: db, Codes: s.Codes, Visits: s.Appointments, Prescriptions: s.Prescriptions, Results: s.Results, Patients: s.Patients, Loc: loc}
	s.Releases = &release.Store{DB: db, Results: s.Results, Documents: s.Documents, Prescriptions: s.Prescriptions}
	s.Portal = &portal.Store{DB: db, Ring: c.Ring, Loc: loc, Codes: s.Messages, Patients: s.Patients, Book: s.Appointments, Online: s.Booking, Bills: s.Fees,
		Release: s.Releases}
	s.Documents.PortalCode = s.Portal.PrintedCode // a printed visit summary may carry a portal code
	s.Dashboard = &dashboard.Store{DB: db, Codes: s.Codes, Loc: loc}
	// The immunisation check reads the medicines taken now (immunisation does not import
	// prescription: prescribing reads immunisation's settings).
	s.Immunisations = &immunisation.Store{DB: db, Loc: loc, Medicines: currentMedicines, AddAllergy: s.Patients.AddAllergyIn}
	// A child's due vaccines hang on the birth date, and the due list leaves out the archived:
	// its rows are rebuilt on registration, on a new birth date and on archiving or restoring,
	// by every writer (the commands' too).
	immunisation.DueLoc = loc
	s.Patients.ChildChanged = immunisation.RefreshDue
	// A visit's vitals' flags and BMI percentile (FHIR) are worked out of the birth date and sex:
	// a change of either versions the patient's visits.
	s.Patients.AgeOrSexChanged = appointment.AgeOrSexChanged
	s.DueReminders = &immunisation.DueService{DB: db, Loc: loc, BaseURL: c.BaseURL, CanSend: s.Messages.CanSend,
		Messages: func(ctx context.Context, q database.Querier) (immunisation.MessageRules, error) {
			r, err := reminder.ReadSettings(ctx, q)
			return immunisation.MessageRules{Email: r.Email, SMS: r.SMS, Language: r.Language, QuietStart: r.QuietStart, QuietEnd: r.QuietEnd}, err
		},
		Booking: func(ctx context.Context, q database.Querier) (bool, error) {
			b, err := booking.ReadSettings(ctx, q)
			return b.Enabled, err
		},
		Guardians: dueGuardians}
	if c.Tell {
		s.Appointments.Changed = s.Messages.Changed
		s.Patients.ReachChanged = s.Messages.PatientChanged
		s.Patients.SignInChanged = s.Portal.SignInChanged
	}
	return s
}

// dueGuardians are the guardians linked to a child on the portal, for the immunisation
// reminders (immunisation does not import portal, the topmost domain).
func dueGuardians(ctx context.Context, q database.Querier, child int64) ([]immunisation.Guardian, error) {
	list, err := portal.GuardiansOf(ctx, q, child)
	out := make([]immunisation.Guardian, len(list))
	for i, g := range list {
		out[i] = immunisation.Guardian{Channel: g.Channel, Address: g.Address, PatientID: g.PatientID}
	}
	return out, err
}

// currentMedicines are a patient's current medicines with their codes, and those stopped within
// the longest wait the immunisation check keeps after one (immunisation.MedicineLookback).
func currentMedicines(ctx context.Context, q database.Querier, patientID int64, now time.Time) ([]immunisation.CurrentMedicine, error) {
	list, err := prescription.RecentCodes(ctx, q, patientID, now, now.Add(-immunisation.MedicineLookback))
	out := make([]immunisation.CurrentMedicine, len(list))
	for i, m := range list {
		out[i] = immunisation.CurrentMedicine{Medicine: m.Medicine, ATC: m.ATC, Until: m.Until}
	}
	return out, err
}

// visitOrders reads a visit's lab orders for the desk's bill (billing knows no results table).
func visitOrders(results *result.Store) func(context.Context, int64, string) ([]billing.VisitOrder, error) {
	return func(ctx context.Context, appointmentID int64, lang string) ([]billing.VisitOrder, error) {
		list, err := results.VisitOrders(ctx, appointmentID, lang)
		out := make([]billing.VisitOrder, len(list))
		for i, o := range list {
			out[i] = billing.VisitOrder{ID: o.ID, Test: o.Test, Label: o.TestLabel, Status: o.Status, Collected: o.CollectedAt != nil}
		}
		return out, err
	}
}
