package fhir

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/document"
	"emr/internal/i18n"
	"emr/internal/immunisation"
	"emr/internal/prescription"
	"emr/internal/result"
)

// MaxEverything is how many resources Patient/$everything answers at most: a record larger
// than that is exported ($export) instead.
const MaxEverything = 5000

// everything answers a patient's whole record as one searchset Bundle: the patient and every
// resource about them the caller may read (ReadAccess, and the scopes); the types and
// categories left out are named in an outcome entry.
func (h *Handler) everything(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "Patient")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	p := auth.PrincipalFrom(r.Context())
	var scoped, outOfScope []string
	for _, kind := range ExportTypes {
		if p.ScopeAllows(kind, auth.ActRead) {
			scoped = append(scoped, kind)
		} else {
			outOfScope = append(outOfScope, kind)
		}
	}
	omitted := append(outOfScope, leftOut(p, scoped)...)
	var all []Resource
	add := func(list ...Resource) error {
		for _, res := range list {
			if slices.Contains(scoped, res.ResourceKind()) && readable(p, res, auth.ActRead) {
				all = append(all, res)
			}
		}
		if len(all) > MaxEverything {
			return &Error{Status: http.StatusBadRequest, Code: "too-costly", Key: "fhir.everything_too_large", Args: []any{MaxEverything}}
		}
		return nil
	}
	ctx := r.Context()
	err = h.gather(ctx, id, i18n.FromRequest(r), add)
	if apperr.KindOf(err) == apperr.KindNotFound {
		err = notFound("Patient", r.PathValue("id"))
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if err := h.audited(r, "fhir.patient_everything.read", "patient", strconv.FormatInt(id, 10), id, ""); err != nil {
		WriteError(w, r, err)
		return
	}
	base := h.baseURL(r)
	total := len(all)
	b := Bundle{base: base0("Bundle"), BundleType: "searchset", Timestamp: instant(time.Now()), Total: &total,
		Link: []BundleLink{{Relation: "self", URL: base + "/Patient/" + r.PathValue("id") + "/$everything"}}}
	for _, res := range all {
		b.Entry = append(b.Entry, BundleEntry{FullURL: base + "/" + res.ResourceKind() + "/" + res.ResourceID(), Resource: res, Search: &EntrySearch{Mode: "match"}})
	}
	if len(omitted) > 0 {
		oo := OperationOutcome{base: base0("OperationOutcome"), Issue: []Issue{{Severity: "information", Code: "suppressed",
			Diagnostics: i18n.T(i18n.FromRequest(r), "fhir.everything_omitted", named(omitted))}}}
		b.Entry = append(b.Entry, BundleEntry{Resource: oo, Search: &EntrySearch{Mode: "outcome"}})
	}
	write(w, http.StatusOK, b)
}

// gather hands add every resource about patient id, type by type.
func (h *Handler) gather(ctx context.Context, id int64, lang string, add func(...Resource) error) error {
	pt, err := h.Patients.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := add(toPatient(pt, h.numberSystem(ctx))); err != nil {
		return err
	}
	if err := add(toAllergies(pt)...); err != nil {
		return err
	}
	f := appointment.RecordFilter{PatientID: id, Limit: exportBatch}
	for {
		list, err := h.Visits.Records(ctx, f)
		if err != nil {
			return err
		}
		for _, rec := range list {
			if err := add(toEncounter(rec.Appointment), toAppointment(rec.Appointment)); err != nil {
				return err
			}
			if err := add(toConditions(rec)...); err != nil {
				return err
			}
			if err := add(toObservations(rec)...); err != nil {
				return err
			}
		}
		if len(list) < exportBatch {
			break
		}
		f.After = list[len(list)-1].ID
	}
	return h.gatherOrders(ctx, id, lang, add)
}

// gatherOrders hands add a patient's orders and results, prescriptions and documents.
func (h *Handler) gatherOrders(ctx context.Context, id int64, lang string, add func(...Resource) error) error {
	if err := h.orders(nil, id, lang).each(ctx, func(o result.Order) error {
		return add(append(append([]Resource{toServiceRequest(o)}, toLabObservations(o)...), toDiagnosticReports(o)...)...)
	}, nothing); err != nil {
		return err
	}
	if err := h.prescriptions(nil, id).each(ctx, func(rx prescription.Prescription) error {
		return add(toMedicationRequests(rx)...)
	}, nothing); err != nil {
		return err
	}
	if err := h.taken(nil, id).each(ctx, func(t prescription.Taken) error { return add(toTakenStatements(t)...) }, nothing); err != nil {
		return err
	}
	if err := h.documents(nil, id).each(ctx, func(d document.Document) error { return add(documentReferenceOf(d)) }, nothing); err != nil {
		return err
	}
	if err := h.immunisations(nil, id, nil).each(ctx, func(x immunisation.Recorded) error { return add(toImmunization(x, lang)) }, nothing); err != nil {
		return err
	}
	return h.recommendationsEach(ctx, id, lang, func(res Resource) error { return add(res) }, nothing)
}
