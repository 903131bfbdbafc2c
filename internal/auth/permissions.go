package auth

import "strings"

// Permission names an action a role may be granted. The catalogue is fixed in code; the
// permissions table mirrors it (see the foundation migration) and a test keeps them equal.
type Permission string

// The permission catalogue: the spec's three, then the clinic's own.
const (
	ManageUser         Permission = "manage user"
	ManagePermission   Permission = "manage permission"
	ViewMenuPermission Permission = "view menu permission"
	ViewPatient        Permission = "view patient"
	ManagePatient      Permission = "manage patient"
	ViewAppointment    Permission = "view appointment"
	ManageAppointment  Permission = "manage appointment"
	RecordVitals       Permission = "record vitals"
	WriteDiagnosis     Permission = "write diagnosis"
	WritePrescription  Permission = "write prescription"
	ManageCatalogue    Permission = "manage catalogue"
	ViewAuditLog       Permission = "view audit log"
	ManageSettings     Permission = "manage settings"
	ManageFees         Permission = "manage fees"
	RecordCharges      Permission = "record charges"
	RecordPayment      Permission = "record payment"
	OverridePrice      Permission = "override price"
	VoidBill           Permission = "void bill"
	ViewFinancial      Permission = "view financial reports"
	IssueDocuments     Permission = "issue documents"
	ManageTemplates    Permission = "manage templates"
	CashUpOwn          Permission = "cash up own drawer"
	RecordResults      Permission = "record results"
	ReviewResults      Permission = "review results"
	// AcknowledgeCritical sees and acknowledges the critical results sent to one: one's own
	// orders', and those escalated to one's covering role or to one as the medical lead.
	AcknowledgeCritical Permission = "acknowledge critical results"
	ManageClinicSets    Permission = "manage clinic sets"
	// ExportRecords starts a bulk export of many patients' records through FHIR (the
	// system, Patient and Group kick-offs): a whole-clinic copy, the administrator's alone
	// unless a clinic grants it. Each exported type still needs its own read permission.
	ExportRecords Permission = "export records"
	// SendMessages reads the log of the messages sent to patients (appointment confirmations
	// and reminders) and sends a failed one again.
	SendMessages Permission = "send messages"
	// ManagePortal turns a patient's portal access on and off, makes access codes and links
	// guardians to a child's record (ADR 44).
	ManagePortal Permission = "manage portal"
	// RecordImmunisations records the doses given, reported, refused or contraindicated and
	// the reactions after them (issue 59).
	RecordImmunisations Permission = "record immunisations"
)

// Catalogue lists every permission, in the order screens show them.
var Catalogue = []Permission{
	ManageUser, ManagePermission, ViewMenuPermission,
	ViewPatient, ManagePatient, ViewAppointment, ManageAppointment,
	RecordVitals, WriteDiagnosis, WritePrescription, RecordResults, ReviewResults, AcknowledgeCritical,
	ManageCatalogue, ViewAuditLog, ManageSettings,
	ManageFees, RecordCharges, RecordPayment, OverridePrice, VoidBill, ViewFinancial, CashUpOwn,
	IssueDocuments, ManageTemplates, ManageClinicSets, ExportRecords, SendMessages, ManagePortal, RecordImmunisations,
}

// AdminRole is the role that holds every permission, including ones added later.
const AdminRole = "admin"

// Access is what a route requires of its caller.
type Access struct {
	kind  accessKind
	perms []Permission // any one of them suffices
}

type accessKind int

const (
	accessPublic accessKind = iota + 1
	accessLoggedIn
	accessPermission
	// accessPortalSignIn: a public route of the patient portal (signing in), checked against
	// the portal's own CSRF cookie; accessPortal: a portal session's (ADR 44). Neither
	// reads a staff session, and staff routes never read a portal session.
	accessPortalSignIn
	accessPortal
)

// Public routes need no session. LoggedIn routes need any valid session.
var (
	Public   = Access{kind: accessPublic}
	LoggedIn = Access{kind: accessLoggedIn}
)

// PortalSignIn routes are the portal's public ones (signing in, reading whether one is);
// Portal routes need a patient's portal session, never a staff one.
var (
	PortalSignIn = Access{kind: accessPortalSignIn}
	Portal       = Access{kind: accessPortal}
)

// Need requires a session whose user holds p (directly through a role, or as an admin).
func Need(p Permission) Access { return Access{kind: accessPermission, perms: []Permission{p}} }

// NeedAny requires a session whose user holds at least one of perms, e.g. reading a visit
// is for whoever records its vitals or writes its diagnosis.
func NeedAny(perms ...Permission) Access { return Access{kind: accessPermission, perms: perms} }

// Allows reports whether p meets a permission access (logged-in and public accesses are
// checked by the guard before).
func (a Access) Allows(p *Principal) bool {
	for _, perm := range a.perms {
		if p.Can(perm) {
			return true
		}
	}
	return a.kind != accessPermission
}

// String describes the access as the route table and OpenAPI document write it.
func (a Access) String() string {
	switch a.kind {
	case accessPublic:
		return "public"
	case accessLoggedIn:
		return "logged-in"
	case accessPortalSignIn:
		return "portal sign-in"
	case accessPortal:
		return "portal"
	case accessPermission:
		names := make([]string, len(a.perms))
		for i, p := range a.perms {
			names[i] = string(p)
		}
		return strings.Join(names, " or ")
	}
	return "undeclared"
}

// Declared reports whether the access was set at all (the zero Access is not).
func (a Access) Declared() bool { return a.kind != 0 }
