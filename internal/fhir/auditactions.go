package fhir

import "slices"

// auditLiterals are the FHIR API's audited actions written as they are, not composed from a
// resource type: a Patient's own read and $everything, the conditional matches a write or a
// Bundle's reference makes, a Group's read and the bulk export.
var auditLiterals = []string{
	"fhir.patient.read", "fhir.patient.list", "fhir.patient_everything.read", "fhir.group.read",
	"fhir.bulk.export", "fhir.bulk_file.download",
}

// AuditActions are every action the FHIR API audits: the literals and, for each resource type,
// its reads, searches and histories (fhir.<action>.read, .list, _history.list), as searchOf,
// the versions reader and _include compose them. The audit log names each in every language.
func AuditActions() []string {
	out := append([]string(nil), auditLiterals...)
	for _, t := range resourceTypes {
		if t.action == "" {
			continue
		}
		stem := "fhir." + t.action
		if t.versions != nil {
			out = append(out, stem+".read", stem+"_history.list")
		}
		if t.read != nil { // a read of its own (ImmunizationRecommendation, which keeps no versions)
			out = append(out, stem+".read")
		}
		if t.plan != nil {
			out = append(out, stem+".list")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
