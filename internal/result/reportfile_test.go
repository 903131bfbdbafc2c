package result_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestAnotherPatientsReportLeavesTheChart (C4 of the laboratory clinician's review,
// 2026-11-29): the lab's report attached to an order whose results are withdrawn as another
// patient's is that patient's document. It leaves the order and the patient's routine files
// list (a receptionist neither lists nor opens it), is kept (never deleted, not even by whoever
// may delete the patient's files), is reached, marked as another patient's, by someone who may
// record results, and the audit on the patient says why. A retraction for any other reason
// leaves the report where it is.
func TestAnotherPatientsReportLeavesTheChart(t *testing.T) {
	for _, row := range []struct {
		category string
		moved    bool
	}{
		{"wrong_patient", true},
		{"transcription", false},
	} {
		t.Run(row.category, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
				c := newClinic(t, db)
				bmp := find(c.order(t, "BMP"), "BMP")
				bmp = apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/collect", bmp.ID), map[string]any{"version": bmp.Version})
				bmp = recorded(t, c, bmp, map[string]any{"analyte": "K", "unit": "mmol/L", "value": "7.2"})
				var linked struct {
					Version      int    `json:"version"`
					ReportFileID *int64 `json:"report_file_id"`
				}
				pdf := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
				r := c.nurse.Upload("POST", fmt.Sprintf("/api/lab-orders/%d/report?version=%d", bmp.ID, bmp.Version), "lab.pdf", pdf)
				r.JSON(t, &linked)
				if r.Status != http.StatusOK || linked.ReportFileID == nil {
					t.Fatalf("report: %d %s", r.Status, r.Body)
				}
				file := *linked.ReportFileID
				apitest.Do[order](t, c.nurse, http.StatusOK, "POST", fmt.Sprintf("/api/lab-orders/%d/retract", bmp.ID),
					map[string]any{"version": linked.Version, "category": row.category, "reason": "label swapped at the desk"})

				c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", bmp.ID), nil).JSON(t, &linked)
				if still := linked.ReportFileID != nil && *linked.ReportFileID == file; still == row.moved {
					t.Errorf("the order's report after the retraction: %v", linked.ReportFileID)
				}
				type files struct {
					Data []struct {
						ID           int64 `json:"id"`
						OtherPatient bool  `json:"other_patient"`
					}
				}
				filesPath, filePath := fmt.Sprintf("/api/patients/%d/files", c.patientID), fmt.Sprintf("/api/patients/%d/files/%d", c.patientID, file)
				routine := apitest.Do[files](t, c.rec, http.StatusOK, "GET", filesPath, nil).Data
				lab := apitest.Do[files](t, c.nurse, http.StatusOK, "GET", filesPath, nil).Data
				if len(lab) != 1 || lab[0].ID != file || lab[0].OtherPatient != row.moved {
					t.Errorf("someone who records results: %+v", lab)
				}
				opened := c.rec.Do("GET", filePath, nil).Status
				if row.moved {
					if len(routine) != 0 || opened != http.StatusNotFound {
						t.Errorf("the routine chart still shows another patient's report: %+v, download %d", routine, opened)
					}
				} else if len(routine) != 1 || routine[0].OtherPatient || opened != http.StatusOK {
					t.Errorf("a report of this patient's own sample left the chart: %+v, download %d", routine, opened)
				}
				if got := c.nurse.Do("GET", filePath, nil).Status; got != http.StatusOK {
					t.Errorf("someone who records results cannot open it: %d", got)
				}
				audited := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'lab_order.report_other_patient' AND patient_id = $1
					AND detail LIKE '%audit.detail.report_other_patient%' AND detail LIKE '%audit.withdrawn.wrong_patient%'`, c.patientID)
				if want := map[bool]int{true: 1, false: 0}[row.moved]; audited != want {
					t.Errorf("audited %d times, want %d", audited, want)
				}
				if !row.moved {
					return
				}
				// Kept: a record is never deleted, not even by whoever may delete the patient's files.
				if got := c.admin.Do("DELETE", filePath, nil).Status; got != http.StatusNotFound {
					t.Errorf("another patient's report deleted: %d", got)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patient_files WHERE id = $1 AND deleted_at IS NULL AND other_patient_at IS NOT NULL
					AND other_patient_order = $2`, file, bmp.ID); n != 1 {
					t.Errorf("the report is not kept, marked: %d", n)
				}
				// Opening it is audited as another patient's document.
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.file.download' AND patient_id = $1
					AND detail LIKE '%audit.detail.file_other_patient%'`, c.patientID); n != 1 {
					t.Errorf("opening another patient's report audited %d times", n)
				}
			})
		})
	}
}
