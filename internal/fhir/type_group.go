package fhir

import (
	"net/http"

	"emr/internal/auth"
)

// typeGroup is Group: "doctor-<id>", the patients of one doctor, read (its first members,
// all counted) and exported together. It has no search and keeps no versions.
var typeGroup = resourceType{
	kind: "Group",
	reads: []ReadRule{
		// A doctor's patients, as the appointment lists show them.
		{"Group", "", []auth.Permission{auth.ViewAppointment}, "GET /api/appointments"},
	},
	read: func(h *Handler) http.HandlerFunc { return h.readGroup },
}
