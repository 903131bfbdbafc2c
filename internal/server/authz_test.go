package server_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/url"
	"time"

	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// requiredAccess is the authorization matrix, written out by hand: for every API route,
// what it requires. A route registered without a row here fails the suite, and a row that
// disagrees with what the server enforces fails it too.
var requiredAccess = map[string]string{
	"GET /api/sanctum/csrf-cookie": "public",
	"POST /api/auth/login":         "public",
	"GET /api/health":              "public",
	"GET /api/ready":               "public",
	"GET /api/config":              "public",
	"GET /api/user":                "logged-in",
	// Which channel a user may join is decided inside (internal/push: own user channel, and
	// the permission behind each shared channel), tested there.
	"POST /api/broadcasting/auth":      "logged-in",
	"POST /api/broadcasting/user-auth": "logged-in",
	"POST /api/auth/logout":            "logged-in",

	"GET /api/patients":                      "view patient",
	"POST /api/patients":                     "manage patient",
	"POST /api/patients/duplicates":          "manage patient",
	"POST /api/patients/import":              "manage patient",
	"GET /api/patients/{id}":                 "view patient",
	"PUT /api/patients/{id}":                 "manage patient",
	"POST /api/patients/{id}/archive":        "manage patient",
	"POST /api/patients/{id}/restore":        "manage patient",
	"GET /api/patients/{id}/photo":           "view patient",
	"PUT /api/patients/{id}/photo":           "manage patient",
	"GET /api/patients/{id}/files":           "view patient",
	"POST /api/patients/{id}/files":          "manage patient",
	"GET /api/patients/{id}/files/{file}":    "view patient",
	"DELETE /api/patients/{id}/files/{file}": "manage patient",

	// The immunisation due list also needs view patient, checked inside (every role holding
	// either has it).
	"GET /api/immunisation/due":                 "record immunisations or manage appointment",
	"POST /api/immunisation/due/remind":         "send messages",
	"POST /api/patients/{id}/immunisation-card": "record immunisations or issue documents",

	"GET /api/services":                        "record charges or manage fees",
	"POST /api/services":                       "manage fees",
	"PUT /api/services/{id}":                   "manage fees",
	"GET /api/services/export":                 "manage fees",
	"POST /api/services/import":                "manage fees",
	"POST /api/services/starter":               "manage fees",
	"GET /api/fees/settings":                   "record charges or record payment or manage fees or view financial reports",
	"PUT /api/fees/settings":                   "manage fees",
	"GET /api/appointments/{id}/bill":          "record charges or record payment or view financial reports",
	"GET /api/appointments/{id}/bill/orders":   "record charges or record payment or view financial reports",
	"GET /api/bill-orders":                     "record charges or record payment or view financial reports",
	"POST /api/appointments/{id}/bill":         "record charges",
	"POST /api/appointments/{id}/bill/lines":   "record charges",
	"POST /api/bills":                          "record charges",
	"GET /api/bills":                           "record charges or record payment or view financial reports",
	"GET /api/bill-tags":                       "record charges or record payment or view financial reports",
	"GET /api/bills/{id}":                      "record charges or record payment or view financial reports",
	"POST /api/bills/{id}/print":               "record charges or record payment or view financial reports",
	"GET /api/bills/{id}/signature":            "record charges or record payment or view financial reports",
	"GET /api/reports/today":                   "view financial reports",
	"PUT /api/bills/{id}":                      "record charges",
	"POST /api/bills/{id}/lines":               "record charges",
	"PUT /api/bills/{id}/lines/{line}":         "record charges",
	"DELETE /api/bills/{id}/lines/{line}":      "record charges",
	"POST /api/bills/{id}/lines/{line}/order":  "record charges",
	"POST /api/bills/{id}/lines/{line}/unmark": "void bill",
	"POST /api/bills/{id}/finalise":            "record charges",
	"POST /api/bills/{id}/void":                "void bill",
	"POST /api/bills/{id}/payments":            "record payment",
	"POST /api/bills/{id}/refunds":             "void bill",
	"GET /api/reports/cash-up":                 "view financial reports or cash up own drawer",
	"PUT /api/drawers/float":                   "record payment or cash up own drawer",
	"GET /api/drawers/float":                   "record payment",
	"GET /api/drawers/{id}":                    "view financial reports or cash up own drawer",
	"POST /api/drawers/{id}/close":             "view financial reports or cash up own drawer",
	"POST /api/drawers/{id}/count":             "view financial reports or cash up own drawer",
	"GET /api/reports/outstanding":             "view financial reports",
	"GET /api/reports/bills":                   "view financial reports",
	"GET /api/reports/revenue":                 "view financial reports",

	"GET /api/order-sets":                      "write diagnosis or write prescription",
	"POST /api/order-sets":                     "write diagnosis or write prescription",
	"GET /api/order-sets/{id}":                 "write diagnosis or write prescription",
	"PUT /api/order-sets/{id}":                 "write diagnosis or write prescription",
	"DELETE /api/order-sets/{id}":              "write diagnosis or write prescription",
	"POST /api/appointments/{id}/order-set":    "write diagnosis",
	"GET /api/appointments/{id}/chart-values":  "write diagnosis",
	"GET /api/appointments/{id}/tests-today":   "write diagnosis",
	"GET /api/snippets":                        "write diagnosis or write prescription",
	"POST /api/snippets":                       "write diagnosis or write prescription",
	"PUT /api/snippets/{id}":                   "write diagnosis or write prescription",
	"DELETE /api/snippets/{id}":                "write diagnosis or write prescription",
	"GET /api/favourites":                      "write diagnosis or write prescription",
	"PUT /api/favourites/{kind}/{ref}":         "write diagnosis or write prescription",
	"DELETE /api/favourites/{kind}/{ref}":      "write diagnosis or write prescription",
	"GET /api/document-templates":              "manage templates or issue documents",
	"GET /api/document-templates/placeholders": "manage templates or issue documents",
	"GET /api/document-templates/{id}":         "manage templates or issue documents",
	"POST /api/document-templates":             "manage templates",
	"PUT /api/document-templates/{id}":         "manage templates",
	"POST /api/document-templates/starter":     "manage templates",
	"POST /api/document-templates/preview":     "manage templates or issue documents",
	"GET /api/documents":                       "view patient",
	"POST /api/documents":                      "issue documents",
	"GET /api/documents/{id}":                  "view patient",
	"POST /api/documents/{id}/print":           "view patient",
	"POST /api/documents/{id}/cancel":          "issue documents",
	"GET /api/documents/{id}/signature":        "view patient",
	// The receiver of a document checks it without an account (rate-limited per address).
	"GET /verify/{code}": "public",

	"GET /api/doctors":                              "view appointment",
	"GET /api/appointments":                         "view appointment",
	"POST /api/appointments":                        "manage appointment",
	"POST /api/appointments/queue":                  "manage appointment",
	"GET /api/appointments/{id}":                    "view appointment",
	"PUT /api/appointments/{id}":                    "manage appointment",
	"POST /api/appointments/{id}/arrive":            "manage appointment",
	"POST /api/appointments/{id}/cancel":            "manage appointment",
	"POST /api/appointments/{id}/no-show":           "manage appointment",
	"POST /api/appointments/{id}/start":             "write diagnosis",
	"POST /api/appointments/{id}/complete":          "write diagnosis",
	"GET /api/appointments/{id}/visit":              "record vitals or write diagnosis",
	"PUT /api/appointments/{id}/visit":              "write diagnosis",
	"PUT /api/appointments/{id}/visit/vitals":       "record vitals",
	"POST /api/appointments/{id}/visit/sign":        "write diagnosis",
	"POST /api/appointments/{id}/visit/amend":       "write diagnosis",
	"GET /api/diagnosis-codes":                      "write diagnosis",
	"POST /api/diagnosis-codes/import":              "manage catalogue",
	"GET /api/lab-tests":                            "write diagnosis",
	"GET /api/lab-tests/{code}":                     "write diagnosis or manage catalogue or record results or review results",
	"GET /api/lab-analytes":                         "manage catalogue",
	"GET /api/lab-test-definitions":                 "manage catalogue",
	"PUT /api/lab-test-definitions/{code}":          "manage catalogue",
	"GET /api/lab-analytes/export":                  "manage catalogue",
	"POST /api/lab-analytes/import":                 "manage catalogue",
	"PUT /api/lab-analytes/{code}":                  "manage catalogue",
	"GET /api/appointments/{id}/orders":             "record results or review results or write diagnosis",
	"GET /api/patients/{id}/orders":                 "record results or review results or write diagnosis",
	"GET /api/patients/{id}/vitals":                 "record vitals or write diagnosis",
	"GET /api/patients/{id}/growth":                 "record vitals or write diagnosis",
	"GET /api/patients/{id}/trend":                  "record results or review results or write diagnosis",
	"GET /api/lab-orders/overdue":                   "record results or review results or write diagnosis",
	"GET /api/results/misfiled":                     "record results or review results or write diagnosis",
	"POST /api/lab-results/{id}/misfiled/resolve":   "record results",
	"GET /api/results/misfiled/count":               "record results or review results or write diagnosis",
	"GET /api/lab-results/{id}/misfiled/orders":     "record results",
	"GET /api/lab-orders/{id}":                      "record results or review results or write diagnosis",
	"POST /api/lab-orders/{id}/collect":             "record results",
	"POST /api/lab-orders/{id}/cancel":              "record results or write diagnosis",
	"POST /api/lab-orders/{id}/not-done":            "record results",
	"POST /api/lab-orders/{id}/report":              "record results",
	"PUT /api/lab-orders/{id}/results":              "record results",
	"POST /api/lab-orders/{id}/retract":             "record results",
	"GET /api/results/review":                       "review results",
	"GET /api/results/review/count":                 "review results",
	"POST /api/results/review":                      "review results",
	"GET /api/results/alerts":                       "acknowledge critical results",
	"POST /api/results/alerts/{id}/acknowledge":     "acknowledge critical results",
	"GET /api/results/alerts/report":                "review results",
	"GET /api/settings/results":                     "logged-in",
	"PUT /api/settings/results":                     "manage settings",
	"GET /api/medicines":                            "write prescription or manage catalogue or record vitals",
	"POST /api/medicines":                           "manage catalogue",
	"PUT /api/medicines/{id}":                       "manage catalogue",
	"POST /api/medicines/import":                    "manage catalogue",
	"GET /api/medicine-safety":                      "write prescription or manage catalogue",
	"POST /api/medicine-safety/aliases":             "manage catalogue",
	"POST /api/medicine-safety/aliases/import":      "manage catalogue",
	"DELETE /api/medicine-safety/aliases/{id}":      "manage catalogue",
	"POST /api/medicine-safety/interactions":        "manage catalogue",
	"DELETE /api/medicine-safety/interactions/{id}": "manage catalogue",

	"GET /api/appointments/{id}/prescriptions":                          "write prescription or write diagnosis or record vitals",
	"POST /api/appointments/{id}/prescriptions":                         "write prescription",
	"GET /api/appointments/{id}/previous-prescription":                  "write prescription",
	"GET /api/patients/{id}/prescriptions":                              "write prescription or write diagnosis or record vitals",
	"GET /api/prescriptions":                                            "write prescription",
	"POST /api/prescriptions":                                           "write prescription",
	"GET /api/prescriptions/{id}":                                       "write prescription or write diagnosis or record vitals",
	"PUT /api/prescriptions/{id}":                                       "write prescription",
	"POST /api/prescriptions/{id}/print":                                "write prescription",
	"POST /api/prescriptions/check":                                     "write prescription",
	"POST /api/prescriptions/{id}/cancel":                               "write prescription",
	"GET /api/prescriptions/{id}/signature":                             "write prescription or write diagnosis or record vitals",
	"GET /api/patients/{id}/current-medicines":                          "write prescription or write diagnosis or record vitals",
	"POST /api/patients/{id}/current-medicines":                         "write prescription or record vitals",
	"PUT /api/current-medicines/{id}":                                   "write prescription or record vitals",
	"POST /api/current-medicines/{id}/stop":                             "write prescription or record vitals",
	"POST /api/current-medicines/{id}/confirm":                          "write prescription or record vitals",
	"POST /api/current-medicines/{id}/entered-in-error":                 "write prescription or record vitals",
	"POST /api/current-medicines/{id}/review":                           "write prescription",
	"POST /api/patients/{id}/current-medicines/kept-pairs":              "write prescription",
	"POST /api/patients/{id}/current-medicines/kept-pairs/review-again": "write prescription",
	"POST /api/prescriptions/{id}/lines/{line}/stop":                    "write prescription or record vitals",
	"POST /api/patients/{id}/current-medicines/none":                    "write prescription or record vitals",

	// Issue 59: the immunisation record (a patient's routes need view patient too, asked inside).
	"GET /api/immunisation/catalogue":                        "record immunisations or write diagnosis or record vitals or manage appointment",
	"GET /api/patients/{id}/immunisations":                   "record immunisations or write diagnosis or record vitals",
	"POST /api/patients/{id}/immunisations":                  "record immunisations",
	"POST /api/patients/{id}/immunisations/check":            "record immunisations",
	"POST /api/immunisations/{id}/entered-in-error":          "record immunisations",
	"POST /api/immunisation/reactions/{id}/entered-in-error": "record immunisations",
	"POST /api/immunisation/reactions/{id}/follow-up":        "record immunisations",
	"POST /api/immunisations/{id}/reactions":                 "record immunisations",
	"GET /api/immunisation/settings":                         "manage settings",
	"PUT /api/immunisation/settings":                         "manage settings",

	"GET /api/get-profile":                 "logged-in",
	"PATCH /api/update-profile":            "logged-in",
	"PUT /api/profile/avatar":              "logged-in",
	"DELETE /api/profile/avatar":           "logged-in",
	"PUT /api/profile/signature":           "logged-in",
	"GET /api/remove-signature/{id}":       "logged-in",
	"POST /api/profile/password":           "logged-in",
	"GET /api/profile/activity":            "logged-in",
	"GET /api/users/{id}/avatar":           "logged-in",
	"GET /api/users/{id}/signature":        "logged-in",
	"GET /api/settings/clinic":             "logged-in",
	"PUT /api/settings/clinic":             "manage settings",
	"GET /api/settings/patient-messages":   "manage settings or send messages",
	"PUT /api/settings/patient-messages":   "manage settings",
	"GET /api/messages":                    "send messages",
	"POST /api/messages/{id}/resend":       "send messages",
	"GET /api/appointments/{id}/messages":  "view appointment",
	"GET /api/m/{token}":                   "public",
	"POST /api/m/{token}/confirm":          "public",
	"POST /api/m/{token}/cancel":           "public",
	"POST /api/m/{token}/optout":           "public",
	"GET /api/settings/patient-release":    "manage settings",
	"PUT /api/settings/patient-release":    "manage settings",
	"GET /api/patients/{id}/release":       "view patient",
	"GET /api/patients/{id}/released":      "view patient",
	"GET /api/release/holds-due":           "review results",
	"POST /api/release/results/{id}":       "review results",
	"POST /api/release/documents/{id}":     "issue documents",
	"POST /api/release/prescriptions/{id}": "write prescription",
	"GET /api/backups":                     "manage settings",
	"POST /api/backups":                    "manage settings",
	"GET /api/backups/{name}":              "manage settings",

	// The patient portal (ADR 44): the chart's card, signing in, and a portal session's own
	// routes, which no staff session, token or client ever opens.
	"GET /api/patients/{id}/portal":                            "manage portal",
	"POST /api/patients/{id}/portal/invite":                    "manage portal",
	"POST /api/patients/{id}/portal/revoke":                    "manage portal",
	"POST /api/patients/{id}/portal/guardians":                 "manage portal",
	"DELETE /api/patients/{id}/portal/guardians/{link}":        "manage portal",
	"GET /api/portal/session":                                  "portal sign-in",
	"POST /api/portal/sign-in/code":                            "portal sign-in",
	"POST /api/portal/sign-in/code/{id}":                       "portal sign-in",
	"POST /api/portal/sign-in/access":                          "portal sign-in",
	"POST /api/portal/sign-out":                                "portal",
	"GET /api/portal/sessions":                                 "portal",
	"POST /api/portal/sessions/end-others":                     "portal",
	"GET /api/portal/records/{id}/appointments":                "portal",
	"POST /api/portal/records/{id}/appointments/{appt}/cancel": "portal",
	"GET /api/portal/records/{id}/appointments/{appt}/times":   "portal",
	"POST /api/portal/records/{id}/appointments/{appt}/move":   "portal",
	"GET /api/portal/records/{id}/bills":                       "portal",
	"GET /api/portal/records/{id}/released":                    "portal",
	"GET /api/portal/records/{id}/released/{kind}/{item}":      "portal",
	"GET /api/portal/records/{id}/contact":                     "portal",
	"PUT /api/portal/records/{id}/contact":                     "portal",
	"GET /api/settings/online-booking":                         "manage settings",
	"PUT /api/settings/online-booking":                         "manage settings",
	"GET /api/booking-requests":                                "view appointment",
	"POST /api/booking-requests/{id}/accept":                   "manage appointment",
	"POST /api/booking-requests/{id}/decline":                  "manage appointment",
	"GET /api/book/options":                                    "public",
	"GET /api/book/slots":                                      "public",
	"POST /api/book/holds":                                     "public",
	"POST /api/book/holds/{id}/confirm":                        "public",

	"GET /api/users":                          "manage user",
	"POST /api/users":                         "manage user",
	"GET /api/users/{id}":                     "manage user",
	"PUT /api/users/{id}":                     "manage user",
	"POST /api/users/{id}/reset-password":     "manage user",
	"POST /api/users/{id}/unlock":             "manage user",
	"POST /api/users/{id}/emergency-access":   "manage user",
	"DELETE /api/users/{id}/emergency-access": "manage user",
	"GET /api/audit-events":                   "view audit log",
	"GET /api/dashboard/appointments":         "view appointment",
	"GET /api/dashboard/patients":             "view patient",
	"GET /api/dashboard/diagnoses":            "write diagnosis",
	"GET /api/audit-events/export":            "view audit log",
	"GET /api/roles":                          "manage user or manage permission",
	"POST /api/roles":                         "manage permission",
	"PUT /api/roles/matrix":                   "manage permission",
	"PUT /api/roles/{id}":                     "manage permission",
	"DELETE /api/roles/{id}":                  "manage permission",
	"GET /api/permissions":                    "manage permission",
	"GET /api/profile/two-factor":             "logged-in",
	"POST /api/profile/two-factor/setup":      "logged-in",
	"POST /api/profile/two-factor/confirm":    "logged-in",
	"POST /api/profile/two-factor/disable":    "logged-in",
	"POST /api/users/{id}/two-factor/reset":   "manage user",
	"PUT /api/roles/{id}/two-factor":          "manage permission",

	"GET /api/api-tokens":                                 "manage user",
	"GET /api/api-tokens/reach":                           "manage user",
	"POST /api/api-tokens":                                "manage user",
	"DELETE /api/api-tokens/{id}":                         "manage user",
	"GET /api/profile/api-tokens":                         "logged-in",
	"GET /api/profile/api-tokens/reach":                   "logged-in",
	"POST /api/profile/api-tokens":                        "logged-in",
	"DELETE /api/profile/api-tokens/{id}":                 "logged-in",
	"GET /fhir/R4/metadata":                               "public",
	"POST /fhir/R4/Observation":                           "record vitals",
	"PUT /fhir/R4/Observation/{id}":                       "record vitals",
	"POST /fhir/R4/Appointment":                           "manage appointment",
	"PUT /fhir/R4/Appointment/{id}":                       "manage appointment",
	"POST /fhir/R4/Encounter":                             "manage appointment",
	"PUT /fhir/R4/Encounter/{id}":                         "manage appointment",
	"GET /fhir/R4/Practitioner":                           "view patient or view appointment",
	"POST /fhir/R4/Practitioner/_search":                  "view patient or view appointment",
	"GET /fhir/R4/Practitioner/{id}":                      "view patient or view appointment",
	"GET /fhir/R4/PractitionerRole":                       "view patient or view appointment",
	"POST /fhir/R4/PractitionerRole/_search":              "view patient or view appointment",
	"GET /fhir/R4/PractitionerRole/{id}":                  "view patient or view appointment",
	"GET /fhir/R4/Organization":                           "logged-in",
	"POST /fhir/R4/Organization/_search":                  "logged-in",
	"GET /fhir/R4/Organization/{id}":                      "logged-in",
	"GET /fhir/R4/Location":                               "logged-in",
	"POST /fhir/R4/Location/_search":                      "logged-in",
	"GET /fhir/R4/Location/{id}":                          "logged-in",
	"GET /fhir/R4/Group/{id}":                             "view appointment",
	"GET /fhir/R4/Appointment":                            "view appointment",
	"POST /fhir/R4/Appointment/_search":                   "view appointment",
	"GET /fhir/R4/Appointment/{id}":                       "view appointment",
	"GET /fhir/R4/ServiceRequest":                         "record results or review results or write diagnosis",
	"POST /fhir/R4/ServiceRequest/_search":                "record results or review results or write diagnosis",
	"GET /fhir/R4/ServiceRequest/{id}":                    "record results or review results or write diagnosis",
	"GET /fhir/R4/DiagnosticReport":                       "record results or review results or write diagnosis",
	"POST /fhir/R4/DiagnosticReport/_search":              "record results or review results or write diagnosis",
	"GET /fhir/R4/DiagnosticReport/{id}":                  "record results or review results or write diagnosis",
	"GET /fhir/R4/MedicationRequest":                      "write prescription or write diagnosis or record vitals",
	"POST /fhir/R4/MedicationRequest/_search":             "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationRequest/{id}":                 "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/DocumentReference":                      "view patient",
	"POST /fhir/R4/DocumentReference/_search":             "view patient",
	"GET /fhir/R4/DocumentReference/{id}":                 "view patient",
	"GET /fhir/R4/Patient/{id}/$everything":               "view patient",
	"GET /fhir/R4/$export":                                "export records",
	"GET /fhir/R4/Patient/$export":                        "export records",
	"GET /fhir/R4/Group/{id}/$export":                     "export records",
	"POST /fhir/R4/$export":                               "export records",
	"POST /fhir/R4/Patient/$export":                       "export records",
	"POST /fhir/R4/Group/{id}/$export":                    "export records",
	"GET /fhir/R4/bulkdata/{job}":                         "export records",
	"DELETE /fhir/R4/bulkdata/{job}":                      "export records",
	"GET /fhir/R4/bulkdata/{job}/{file}":                  "export records",
	"GET /fhir/R4/.well-known/smart-configuration":        "public",
	"POST /fhir/R4/auth/token":                            "public",
	"GET /api/api-clients":                                "manage user",
	"POST /api/api-clients":                               "manage user",
	"DELETE /api/api-clients/{id}":                        "manage user",
	"GET /fhir/R4/auth/authorize":                         "public",
	"POST /fhir/R4/auth/authorize":                        "public",
	"GET /fhir/R4/.well-known/jwks.json":                  "public",
	"GET /api/smart/authorize":                            "logged-in",
	"POST /api/smart/authorize":                           "logged-in",
	"GET /api/smart/apps":                                 "view patient",
	"POST /api/smart/launch":                              "view patient",
	"GET /api/smart-apps":                                 "manage user",
	"POST /api/smart-apps":                                "manage user",
	"DELETE /api/smart-apps/{id}":                         "manage user",
	"POST /fhir/R4":                                       "logged-in",
	"POST /fhir/R4/{$}":                                   "logged-in",
	"GET /fhir/R4/Patient":                                "view patient",
	"POST /fhir/R4/Patient/_search":                       "view patient",
	"GET /fhir/R4/Patient/{id}":                           "view patient",
	"POST /fhir/R4/Patient":                               "manage patient",
	"PUT /fhir/R4/Patient/{id}":                           "manage patient",
	"GET /fhir/R4/Patient/{id}/_history/{vid}":            "view patient",
	"GET /fhir/R4/Patient/{id}/_history":                  "view patient",
	"GET /fhir/R4/Patient/_history":                       "view patient",
	"GET /fhir/R4/AllergyIntolerance/{id}/_history/{vid}": "view patient",
	"GET /fhir/R4/AllergyIntolerance/{id}/_history":       "view patient",
	"GET /fhir/R4/AllergyIntolerance/_history":            "view patient",
	"GET /fhir/R4/Encounter/{id}/_history/{vid}":          "view appointment",
	"GET /fhir/R4/Encounter/{id}/_history":                "view appointment",
	"GET /fhir/R4/Encounter/_history":                     "view appointment",
	"GET /fhir/R4/Appointment/{id}/_history/{vid}":        "view appointment",
	"GET /fhir/R4/Appointment/{id}/_history":              "view appointment",
	"GET /fhir/R4/Appointment/_history":                   "view appointment",
	"GET /fhir/R4/Condition/{id}/_history/{vid}":          "record vitals or write diagnosis",
	"GET /fhir/R4/Condition/{id}/_history":                "record vitals or write diagnosis",
	"GET /fhir/R4/Condition/_history":                     "record vitals or write diagnosis",
	"GET /fhir/R4/Observation/{id}/_history/{vid}":        "record vitals or write diagnosis or record results or review results",
	"GET /fhir/R4/Observation/{id}/_history":              "record vitals or write diagnosis or record results or review results",
	"GET /fhir/R4/Observation/_history":                   "record vitals or write diagnosis or record results or review results",
	"GET /fhir/R4/ServiceRequest/{id}/_history/{vid}":     "record results or review results or write diagnosis",
	"GET /fhir/R4/ServiceRequest/{id}/_history":           "record results or review results or write diagnosis",
	"GET /fhir/R4/ServiceRequest/_history":                "record results or review results or write diagnosis",
	"GET /fhir/R4/DiagnosticReport/{id}/_history/{vid}":   "record results or review results or write diagnosis",
	"GET /fhir/R4/DiagnosticReport/{id}/_history":         "record results or review results or write diagnosis",
	"GET /fhir/R4/DiagnosticReport/_history":              "record results or review results or write diagnosis",
	"GET /fhir/R4/MedicationRequest/{id}/_history/{vid}":  "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationRequest/{id}/_history":        "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationRequest/_history":             "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/DocumentReference/{id}/_history/{vid}":  "view patient",
	"GET /fhir/R4/DocumentReference/{id}/_history":        "view patient",
	"GET /fhir/R4/DocumentReference/_history":             "view patient",
	"GET /fhir/R4/Practitioner/{id}/_history/{vid}":       "view patient or view appointment",
	"GET /fhir/R4/Practitioner/{id}/_history":             "view patient or view appointment",
	"GET /fhir/R4/Practitioner/_history":                  "view patient or view appointment",
	"GET /fhir/R4/PractitionerRole/{id}/_history/{vid}":   "view patient or view appointment",
	"GET /fhir/R4/PractitionerRole/{id}/_history":         "view patient or view appointment",
	"GET /fhir/R4/PractitionerRole/_history":              "view patient or view appointment",
	"GET /fhir/R4/Organization/{id}/_history/{vid}":       "logged-in",
	"GET /fhir/R4/Organization/{id}/_history":             "logged-in",
	"GET /fhir/R4/Organization/_history":                  "logged-in",
	"GET /fhir/R4/Location/{id}/_history/{vid}":           "logged-in",
	"GET /fhir/R4/Location/{id}/_history":                 "logged-in",
	"GET /fhir/R4/Location/_history":                      "logged-in",
	"GET /fhir/R4/AllergyIntolerance":                     "view patient",
	"POST /fhir/R4/AllergyIntolerance/_search":            "view patient",
	"GET /fhir/R4/AllergyIntolerance/{id}":                "view patient",
	"GET /fhir/R4/Encounter":                              "view appointment",
	"POST /fhir/R4/Encounter/_search":                     "view appointment",
	"GET /fhir/R4/Encounter/{id}":                         "view appointment",
	"GET /fhir/R4/Condition":                              "record vitals or write diagnosis",
	"POST /fhir/R4/Condition/_search":                     "record vitals or write diagnosis",
	"GET /fhir/R4/Condition/{id}":                         "record vitals or write diagnosis",
	"GET /fhir/R4/Observation":                            "record vitals or write diagnosis or record results or review results",
	"POST /fhir/R4/Observation/_search":                   "record vitals or write diagnosis or record results or review results",
	"GET /fhir/R4/Observation/{id}":                       "record vitals or write diagnosis or record results or review results",

	// The patient's current medicines (issue 55): read by who reads prescriptions.
	"GET /fhir/R4/MedicationStatement":                     "write prescription or write diagnosis or record vitals",
	"POST /fhir/R4/MedicationStatement/_search":            "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationStatement/{id}":                "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationStatement/{id}/_history/{vid}": "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationStatement/{id}/_history":       "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/MedicationStatement/_history":            "write prescription or write diagnosis or record vitals",
	"GET /fhir/R4/Immunization":                            "record immunisations or write diagnosis or record vitals",
	"POST /fhir/R4/Immunization/_search":                   "record immunisations or write diagnosis or record vitals",
	"GET /fhir/R4/Immunization/{id}":                       "record immunisations or write diagnosis or record vitals",
	"GET /fhir/R4/Immunization/{id}/_history/{vid}":        "record immunisations or write diagnosis or record vitals",
	"GET /fhir/R4/Immunization/{id}/_history":              "record immunisations or write diagnosis or record vitals",
	"GET /fhir/R4/Immunization/_history":                   "record immunisations or write diagnosis or record vitals",
	"GET /fhir/R4/ImmunizationRecommendation":              "record immunisations or write diagnosis or record vitals",
	"POST /fhir/R4/ImmunizationRecommendation/_search":     "record immunisations or write diagnosis or record vitals",
	"GET /fhir/R4/ImmunizationRecommendation/{id}":         "record immunisations or write diagnosis or record vitals",
}

// ownerOnly routes act on user {id}: that user's own, or anyone's for an admin.
var ownerOnly = map[string]bool{
	"GET /api/remove-signature/{id}": true,
	"GET /api/users/{id}/signature":  true,
}

// rolePermissions are the permissions each seeded role holds (admin holds all).
var rolePermissions = map[string][]string{
	"doctor":       {"view patient", "manage patient", "view appointment", "manage appointment", "record vitals", "write diagnosis", "write prescription", "record results", "review results", "acknowledge critical results", "record charges", "issue documents", "manage templates", "record immunisations"},
	"nurse":        {"view patient", "view appointment", "record vitals", "record results", "acknowledge critical results", "record immunisations"},
	"receptionist": {"view patient", "manage patient", "view appointment", "manage appointment", "record charges", "record payment", "cash up own drawer", "send messages", "manage portal"},
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

func TestAuthorizationMatrix(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		clients := map[string]*apitest.Client{"anonymous": env.Client()}
		clients["anonymous"].Do("GET", "/api/sanctum/csrf-cookie", nil)
		for _, role := range []string{"admin", "doctor", "nurse", "receptionist"} {
			clients[role] = env.LoggedIn("matrix-"+role, env.CreateUser("matrix-"+role, role))
		}
		for _, c := range clients { // each browser has opened the portal page too (its CSRF cookie)
			c.Do("GET", "/api/portal/session", nil)
		}

		routes := slices.Clone(env.Server.Routes)
		// Logout ends the session it is sent with, so it goes last.
		slices.SortStableFunc(routes, func(a, b auth.Route) int {
			return boolInt(a.Path == "/api/auth/logout") - boolInt(b.Path == "/api/auth/logout")
		})
		for _, rt := range routes {
			key := rt.Method + " " + rt.Path
			want, ok := requiredAccess[key]
			if !ok {
				t.Errorf("%s is not in the authorization matrix: add the access it needs to requiredAccess", key)
				continue
			}
			if got := rt.Access.String(); got != want {
				t.Errorf("%s declares %q, the matrix says %q", key, got, want)
			}
			// Ids that do not exist, so that no request changes a real record.
			path := pathParam.ReplaceAllString(strings.TrimSuffix(rt.Path, "{$}"), "999999")

			if (rt.Method != http.MethodGet || rt.ChangesState) && !rt.NoCSRF {
				forged := env.Client()
				forged.NoCSRF = true
				if r := forged.Do(rt.Method, path, map[string]any{}); r.Status != http.StatusForbidden {
					t.Errorf("%s without the CSRF header: %d, want 403", key, r.Status)
				}
			}
			for _, who := range []string{"anonymous", "admin", "doctor", "nurse", "receptionist"} {
				r := clients[who].Do(rt.Method, path, map[string]any{})
				if want == "portal" { // no staff session is a portal session
					if r.Status != http.StatusUnauthorized {
						t.Errorf("%s as %s: %d, want 401", key, who, r.Status)
					}
					continue
				}
				allowed := want == "public" || want == "portal sign-in" ||
					(who != "anonymous" && (want == "logged-in" || who == "admin" || holdsAny(rolePermissions[who], want)))
				if ownerOnly[key] && who != "anonymous" && who != "admin" {
					allowed = false // another user's (id 999999): only an admin may
				}
				switch {
				case allowed && (r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden):
					t.Errorf("%s as %s: %d, want access", key, who, r.Status)
				case !allowed && who == "anonymous" && r.Status != http.StatusUnauthorized:
					t.Errorf("%s as anonymous: %d, want 401", key, r.Status)
				case !allowed && who != "anonymous" && r.Status != http.StatusForbidden:
					t.Errorf("%s as %s: %d, want 403", key, who, r.Status)
				}
			}
		}
		for key := range requiredAccess {
			if !slices.ContainsFunc(env.Server.Routes, func(rt auth.Route) bool { return rt.Method+" "+rt.Path == key }) {
				t.Errorf("the matrix lists %s, which the server does not serve", key)
			}
		}
	})
}

// holdsAny reports whether held includes one of the permissions of want ("a or b").
func holdsAny(held []string, want string) bool {
	for _, p := range strings.Split(want, " or ") {
		if slices.Contains(held, p) {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTokenMatrix: an API token is its user, narrowed by its scopes. For every FHIR
// interaction and role, a token with no scopes, or with a scope for exactly that resource and
// interaction, has the role's access; a scope for another interaction or another resource
// is refused. On every native route, an unscoped token has the role's access without a
// CSRF header, and a scoped one none; on a session-only route, no token has any.
func TestTokenMatrix(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		adminPassword := env.CreateUser("tokens-admin", "admin")
		admin := env.LoggedIn("tokens-admin", adminPassword)
		made := map[string]*apitest.Client{}
		perRole := map[string]int{}
		token := func(who, scopes string) *apitest.Client {
			if c, ok := made[who+" "+scopes]; ok {
				return c
			}
			// An account holds at most auth.MaxTokensPerUser live tokens: the role's next
			// account takes the rest.
			n := perRole[who] / auth.MaxTokensPerUser
			username := fmt.Sprintf("tokens-%s-%d", who, n)
			if perRole[who]%auth.MaxTokensPerUser == 0 {
				env.CreateUser(username, who)
			}
			perRole[who]++
			var out struct{ Token string }
			r := admin.Do("POST", "/api/api-tokens", map[string]any{"user_id": env.UserID(username), "name": "matrix " + scopes, "scopes": scopes,
				"current_password": adminPassword})
			switch _, code, _ := r.Error(t); {
			case r.Status == http.StatusCreated:
				r.JSON(t, &out)
			case r.Status == http.StatusUnprocessableEntity && code == "scope.beyond_account":
				// The form refuses a scope wider than the account; one stored before that
				// check (or written in the database) is still capped at every request.
				var err error
				out.Token, _, err = (&auth.APITokens{DB: db, Sessions: &auth.Sessions{DB: db}}).Create(context.Background(), audit.Event{},
					auth.NewAPIToken{UserID: env.UserID(username), Name: "matrix " + scopes, Scopes: scopes, Lifetime: auth.DefaultTokenValid})
				if err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("token %s %q: %d %s", who, scopes, r.Status, r.Body)
			}
			c := env.Client()
			c.Header.Set("Authorization", "Bearer "+out.Token)
			made[who+" "+scopes] = c
			return c
		}
		roles := []string{"admin", "doctor", "nurse", "receptionist"}
		system := backendTokens(t, env, admin)
		for _, rt := range env.Server.Routes {
			if rt.Access.String() == "public" || rt.Access.String() == "portal sign-in" {
				continue
			}
			key := rt.Method + " " + rt.Path
			want := requiredAccess[key]
			path := pathParam.ReplaceAllString(strings.TrimSuffix(rt.Path, "{$}"), "999999")
			if want == "portal" { // the portal takes no token, whatever its account or scopes
				for _, c := range []*apitest.Client{token("admin", ""), system("system/*.cruds")} {
					if r := c.Do(rt.Method, path, map[string]any{}); r.Status != http.StatusForbidden {
						t.Errorf("%s with a token: %d, want 403", key, r.Status)
					}
				}
				continue
			}
			for _, role := range roles {
				allowed := (want == "logged-in" || role == "admin" || holdsAny(rolePermissions[role], want)) && (!ownerOnly[key] || role == "admin")
				check := func(c *apitest.Client, access bool, what string) {
					r := c.Do(rt.Method, path, map[string]any{})
					refused := r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden
					if access == refused {
						t.Errorf("%s as %s with %s: %d", key, role, what, r.Status)
					}
				}
				if rt.SessionOnly {
					// Credentials and accounts are a browser session's alone, whatever the
					// token's account may do.
					r := token(role, "").Do(rt.Method, path, map[string]any{})
					if r.Status != http.StatusForbidden {
						t.Errorf("%s as %s with an unscoped token: %d, want 403 (a browser session's alone)", key, role, r.Status)
					} else if _, code, _ := r.Error(t); allowed && code != "auth.session_only" {
						t.Errorf("%s as %s with an unscoped token: %s, want auth.session_only", key, role, code)
					}
					continue
				}
				if rt.Path == "/api/auth/logout" {
					continue
				}
				check(token(role, ""), allowed, "an unscoped token")
				if !rt.FHIR {
					check(token(role, "user/*.cruds"), false, "a scoped token on the native API")
					continue
				}
				if rt.Resource == "" { // a Bundle: each entry is checked as its own request (internal/fhir's tests)
					check(token(role, "user/*.rs"), allowed, "a scoped token")
					continue
				}
				act := string(rt.Interaction)
				other := "r"
				if act == "r" {
					other = "s"
				}
				check(token(role, "user/"+rt.Resource+"."+act), allowed, "a token scoped to it")
				check(token(role, "user/"+rt.Resource+"."+other), false, "a token scoped to another interaction")
				otherType := "Practitioner"
				if rt.Resource == otherType {
					otherType = "Organization"
				}
				check(token(role, "user/"+otherType+"."+act), false, "a token scoped to another resource")
			}
			// A backend client: its system/ scopes alone decide, on the FHIR API only.
			check := func(c *apitest.Client, access bool, what string) {
				r := c.Do(rt.Method, path, map[string]any{})
				if refused := r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden; access == refused {
					t.Errorf("%s with %s: %d", key, what, r.Status)
				}
			}
			switch {
			case rt.Path == "/api/auth/logout":
			case !rt.FHIR:
				check(system("system/*.cruds"), false, "a backend client on the native API")
			case rt.Resource == "":
				check(system("system/*.rs"), true, "a backend client")
			default:
				act := string(rt.Interaction)
				other := map[string]string{"r": "s", "s": "r", "c": "r", "u": "r"}[act]
				check(system("system/"+rt.Resource+"."+act), true, "a backend client scoped to it")
				check(system("system/"+rt.Resource+"."+other), false, "a backend client scoped to another interaction")
				otherType := "Practitioner"
				if rt.Resource == otherType {
					otherType = "Organization"
				}
				check(system("system/"+otherType+"."+act), false, "a backend client scoped to another resource")
			}
		}
	})
}

// backendTokens registers a backend client per scope (once) and returns a client calling
// with an access token it got by the SMART Backend Services flow.
func backendTokens(t *testing.T, env *apitest.Env, admin *apitest.Client) func(scope string) *apitest.Client {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	jwks, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS384", Use: "sig"}}})
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS384, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]*apitest.Client{}
	// The token endpoint checks aud against the clinic's public address (here, the test
	// server's own).
	var clinic struct{ Version int }
	admin.Do("GET", "/api/settings/clinic", nil).JSON(t, &clinic)
	if r := admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Clinic", "public_url": env.HTTP.URL, "version": clinic.Version}); r.Status != http.StatusOK {
		t.Fatalf("public address: %d %s", r.Status, r.Body)
	}
	return func(scope string) *apitest.Client {
		if c, ok := made[scope]; ok {
			return c
		}
		var reg struct {
			ClientID string `json:"client_id"`
		}
		r := admin.Do("POST", "/api/api-clients", map[string]any{"name": "matrix " + scope, "scopes": scope, "jwks": string(jwks)})
		if r.Status != http.StatusCreated {
			t.Fatalf("register %s: %d %s", scope, r.Status, r.Body)
		}
		r.JSON(t, &reg)
		aud := env.HTTP.URL + "/fhir/R4/auth/token"
		assertion, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: reg.ClientID, Subject: reg.ClientID, Audience: jwt.Audience{aud},
			Expiry: jwt.NewNumericDate(time.Now().Add(4 * time.Minute)), ID: reg.ClientID}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.PostForm(aud, url.Values{"grant_type": {"client_credentials"}, "client_assertion_type": {auth.AssertionType}, "client_assertion": {assertion}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
			t.Fatalf("token for %s: %d %v", scope, resp.StatusCode, err)
		}
		c := env.Client()
		c.Header.Set("Authorization", "Bearer "+out.AccessToken)
		made[scope] = c
		return c
	}
}
