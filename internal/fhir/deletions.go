package fhir

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"emr/internal/database"
	"emr/internal/immunisation"
)

// A resource worked out of a record (a visit form's vital or BMI percentile, a diagnosis, an
// allergy on the patient, a laboratory result) stops being when a version of its record no
// longer gives it: R4's histories say a DELETE entry at that version, and a bulk export since a
// time lists it among its deletions (ADR 49). Which resources a version dropped is read from its
// record's version just below it.

// deletion is a resource of a record's earlier version that the version after it has not.
type deletion struct {
	was Resource // as the version below had it
	at  version  // the version that no longer has it
}

// deletions are the resources of kind that each of list's versions (src's, newest first by
// seq or by version, as a history reads them) dropped. A record's versions in list are
// contiguous among its kept ones (a history page is a window of them), so the one below each is
// the next of its record in list, or, for the lowest, read: once per record.
func (src versionSource) deletions(ctx context.Context, kind string, list []version, lang string) ([]deletion, error) {
	lowest := map[int64]int{} // record → index in list of its lowest version there
	for i, v := range list {
		if j, ok := lowest[v.recordID]; !ok || list[j].version > v.version {
			lowest[v.recordID] = i
		}
	}
	below := map[int64]version{} // record → its kept version below the lowest in list
	for rec, i := range lowest {
		prev, err := src.kept(ctx, database.KeptQuery{ID: rec, Before: int64(list[i].version), Limit: 1}, lang)
		if err != nil {
			return nil, err
		}
		if len(prev) == 1 {
			below[rec] = prev[0]
		}
	}
	var out []deletion
	for i, v := range list {
		prev := below[v.recordID]
		if lowest[v.recordID] != i {
			prev = nextOf(list, v)
		}
		for _, res := range prev.resources {
			if res.ResourceKind() == kind && pick(v.resources, kind, res.ResourceID()) == nil {
				out = append(out, deletion{was: res, at: v})
			}
		}
	}
	return out, nil
}

// nextOf is the version of v's record in list just below v (list holds one).
func nextOf(list []version, v version) version {
	var best version
	for _, w := range list {
		if w.recordID == v.recordID && w.version < v.version && w.version > best.version {
			best = w
		}
	}
	return best
}

// deleteEntry is the history Bundle's entry of a resource's deletion at version v.
func deleteEntry(base, kind, id string, v version) BundleEntry {
	return BundleEntry{FullURL: base + "/" + kind + "/" + id,
		Request:  &EntryRequest{Method: "DELETE", URL: kind + "/" + id},
		Response: &EntryResponse{Status: "204", Etag: `W/"` + strconv.Itoa(v.version) + `"`, LastModified: instant(v.at)}}
}

// deletedSuffix names the file of an export's deletions of a type: "Observation-deleted".
const deletedSuffix = "-deleted"

// exportDeletions writes, for an export since a time, the resources of its types that a version
// kept at or after that time dropped and that are not back: each a transaction Bundle of one
// DELETE entry in its type's file of deletions (the manifest's "deleted", Bulk Data 2.0), of
// the export's patients (a resource of no patient, a member of staff's, in every export) and
// the categories its requester may read, once each.
func (h *Handler) exportDeletions(ctx context.Context, spec ExportSpec, sink Sink, counts map[string]int, step func() error) error {
	if spec.Since == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, t := range h.versioned() {
		if !slices.Contains(spec.Types, t.kind) {
			continue
		}
		for _, src := range t.sources {
			q := database.KeptQuery{Since: *spec.Since, Limit: exportBatch}
			for {
				page, err := src.kept(ctx, q, "en")
				if err != nil {
					return err
				}
				gone, err := src.deletions(ctx, t.kind, page, "en")
				if err != nil {
					return err
				}
				ours, err := h.exportsPatients(ctx, spec, gone)
				if err != nil {
					return err
				}
				live := map[int64]version{}
				for _, d := range gone {
					key := t.kind + "/" + d.was.ResourceID()
					if seen[key] || !ours[d.at.patientID] || slices.Contains(spec.LeftOut, t.kind+":"+categoryOf(d.was)) || !spec.Filters.keeps(d.was) {
						continue
					}
					now, ok := live[d.at.recordID]
					if !ok {
						if now, _, err = src.live(ctx, d.at.recordID, "en"); err != nil {
							return err
						}
						live[d.at.recordID] = now
					}
					if pick(now.resources, t.kind, d.was.ResourceID()) != nil {
						continue // back since
					}
					seen[key] = true
					if err := h.writeDeletion(sink, counts, t.kind, d); err != nil {
						return err
					}
				}
				if err := step(); err != nil {
					return err
				}
				if len(page) < exportBatch {
					break
				}
				q.Before = page[len(page)-1].seq
			}
		}
	}
	if slices.Contains(spec.Types, "ImmunizationRecommendation") {
		return h.exportEndedForecasts(ctx, spec, sink, counts)
	}
	return nil
}

// exportEndedForecasts writes, for an export since a time, the recommendations that stopped
// being since then: the forecasts a birthday ended (past the clinic's every schedule), of the
// export's patients (ImmunizationRecommendation keeps no versions: its deletions are read from
// the calendar, not from kept versions).
func (h *Handler) exportEndedForecasts(ctx context.Context, spec ExportSpec, sink Sink, counts map[string]int) error {
	set, err := immunisation.ReadSettings(ctx, h.DB)
	if err != nil {
		return err
	}
	ended, err := immunisation.ForecastsEnded(ctx, h.DB, immunisation.Default(), set.Schedules, *spec.Since, h.Visits.Today(), h.Visits.Location())
	if err != nil {
		return err
	}
	gone := make([]deletion, len(ended))
	for i, e := range ended {
		id := strconv.FormatInt(e.PatientID, 10)
		// As it stood when it ended (a _typeFilter on _lastUpdated reads its time).
		gone[i] = deletion{was: ImmunizationRecommendation{base: base{ResourceType: "ImmunizationRecommendation", ID: id, Meta: &Meta{LastUpdated: instant(e.On)}},
			Patient: ref("Patient", e.PatientID)},
			at: version{patientID: e.PatientID, at: e.On}}
	}
	ours, err := h.exportsPatients(ctx, spec, gone)
	if err != nil {
		return err
	}
	for _, d := range gone {
		if !ours[d.at.patientID] || !spec.Filters.keeps(d.was) {
			continue
		}
		if err := h.writeDeletion(sink, counts, "ImmunizationRecommendation", d); err != nil {
			return err
		}
	}
	return nil
}

// writeDeletion writes d, a resource of kind, as a transaction Bundle of one DELETE entry in
// the export's file of kind's deletions.
func (h *Handler) writeDeletion(sink Sink, counts map[string]int, kind string, d deletion) error {
	line, err := json.Marshal(Bundle{base: base0("Bundle"), BundleType: "transaction", Timestamp: instant(d.at.at),
		Entry: []BundleEntry{{Request: &EntryRequest{Method: "DELETE", URL: kind + "/" + d.was.ResourceID()}}}})
	if err != nil {
		return err
	}
	counts[kind+deletedSuffix]++
	return sink.Line(kind+deletedSuffix, line)
}

// exportsPatients says which of the deletions' patients the export is of (0, no patient's: every export).
func (h *Handler) exportsPatients(ctx context.Context, spec ExportSpec, gone []deletion) (map[int64]bool, error) {
	ours := map[int64]bool{0: true}
	var ids []int64
	for _, d := range gone {
		switch pid := d.at.patientID; {
		case pid == 0 || ours[pid] || slices.Contains(ids, pid):
		case spec.Patients != nil:
			if _, found := slices.BinarySearch(spec.Patients, pid); found {
				ids = append(ids, pid)
			}
		default:
			ids = append(ids, pid)
		}
	}
	if spec.GroupDoctor != 0 && len(ids) > 0 {
		var err error
		if ids, err = h.Visits.PatientsAmong(ctx, spec.GroupDoctor, ids); err != nil {
			return nil, err
		}
	}
	for _, pid := range ids {
		ours[pid] = true
	}
	return ours, nil
}
