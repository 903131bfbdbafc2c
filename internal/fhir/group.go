package fhir

import (
	"net/http"
	"strconv"
	"strings"

	"emr/internal/apperr"
	"emr/internal/user"
)

// ---- Group: a doctor's patients, the groups a Group-level export names ----

// Group is the patients who have had an appointment with one doctor ("doctor-<id>"): a
// group the server keeps, read-only, as the Bulk Data IG's read-only groups are.
type Group struct {
	base
	Active         bool          `json:"active"`
	Type           string        `json:"type"`
	Actual         bool          `json:"actual"`
	Name           string        `json:"name,omitempty"`
	Quantity       int           `json:"quantity"`
	ManagingEntity *Reference    `json:"managingEntity,omitempty"`
	Member         []GroupMember `json:"member,omitempty"`
}

// GroupMember is one patient of a Group.
type GroupMember struct {
	Entity *Reference `json:"entity"`
}

// groupMemberCap is how many members a Group read lists at most: a doctor of many years may
// have tens of thousands of patients, and a read is not an export. Past it the Group says
// how many there are (quantity), lists the first ones by id and is tagged SUBSETTED (FHIR's
// mark of a resource answered in part); Group/{id}/$export?_type=Patient gives them all.
var groupMemberCap = 1000

// subsetted is the tag of a resource answered in part.
var subsetted = Coding{System: "http://terminology.hl7.org/CodeSystem/v3-ObservationValue", Code: "SUBSETTED", Display: "subsetted"}

// groupDoctor reads a Group id: "doctor-<id>", the patients of that doctor.
func groupDoctor(id string) (int64, bool) {
	rest, ok := strings.CutPrefix(id, "doctor-")
	if !ok {
		return 0, false
	}
	return wholeID(rest)
}

// doctorOf is the account a Group id names; a not-found error when there is none.
func (h *Handler) doctorOf(r *http.Request, id string) (user.User, error) {
	doctor, ok := groupDoctor(id)
	if !ok {
		return user.User{}, notFound("Group", id)
	}
	u, err := user.Get(r.Context(), h.DB, doctor)
	if apperr.KindOf(err) == apperr.KindNotFound {
		return u, notFound("Group", id)
	}
	return u, err
}

// readGroup answers a doctor's Group: how many patients, and the first groupMemberCap.
func (h *Handler) readGroup(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	doctor, err := h.doctorOf(r, id)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	n, err := h.Visits.PatientCount(r.Context(), doctor.ID)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	ids, err := h.Visits.PatientsOf(r.Context(), doctor.ID, 0, groupMemberCap)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	g := Group{base: base0("Group"), Active: true, Type: "person", Actual: true, Name: "Patients of " + doctor.Name, Quantity: n,
		ManagingEntity: &Reference{Reference: "Practitioner/" + strconv.FormatInt(doctor.ID, 10), Display: doctor.Name}}
	g.ID = id
	for _, pid := range ids {
		g.Member = append(g.Member, GroupMember{Entity: ref("Patient", pid)})
	}
	if len(ids) < n {
		g.Meta = &Meta{Tag: []Coding{subsetted}}
	}
	if err := h.audited(r, "fhir.group.read", "user", strconv.FormatInt(doctor.ID, 10), 0, "Group/"+id+": "+strconv.Itoa(len(ids))+" of "+strconv.Itoa(n)+" members"); err != nil {
		WriteError(w, r, err)
		return
	}
	write(w, http.StatusOK, g)
}
