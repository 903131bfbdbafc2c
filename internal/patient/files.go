package patient

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
)

// File kinds.
const (
	KindPhoto      = "photo"
	KindAttachment = "attachment"
)

var (
	photoTypes      = []string{"image/jpeg", "image/png", "image/webp"}
	attachmentTypes = []string{"image/jpeg", "image/png", "image/webp", "image/gif", "application/pdf"}
)

// File describes a stored photo or attachment.
type File struct {
	ID          int64     `json:"id"`
	PatientID   int64     `json:"patient_id"`
	Kind        string    `json:"kind"`
	Name        string    `json:"name"`
	ContentType string    `json:"content_type"`
	Size        int64     `json:"size"`
	CreatedAt   time.Time `json:"created_at"`
	// OtherPatient marks a lab's report found to be another patient's (its order's results
	// withdrawn as a wrong patient's): kept, out of the routine files list, shown only to
	// someone who may record results, marked as such.
	OtherPatient bool `json:"other_patient"`
	// Refiled marks a lab's report that came from another patient's record, moved here with
	// the values refiled to this patient (amended, ISO 15189 §7.4.1.7): it may still show the
	// other patient's identity, so it is marked, renamed neutrally and kept (never deleted).
	Refiled bool `json:"refiled"`
}

// ContentType decides a file's type from its bytes, never from its name, and checks it is
// allowed for the kind.
func ContentType(kind string, data []byte) (string, error) {
	ct := strings.Split(http.DetectContentType(data), ";")[0]
	if kind == KindPhoto && !slices.Contains(photoTypes, ct) {
		return "", apperr.Invalid("file.photo_type")
	}
	if kind == KindAttachment && !slices.Contains(attachmentTypes, ct) {
		return "", apperr.Invalid("file.attachment_type")
	}
	return ct, nil
}

func cleanName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return -1
		}
		return r
	}, strings.TrimSpace(name))
	for utf8.RuneCountInString(name) > 200 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" {
		name = "file"
	}
	return name
}

// AddFile stores a photo (replacing the current one) or an attachment of an active patient.
func (s *Store) AddFile(ctx context.Context, e audit.Event, patientID int64, kind, name string, data []byte) (File, error) {
	var f File
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		f, err = AddFileIn(ctx, tx, e, patientID, kind, name, data, s.now())
		return err
	})
	return f, err
}

// AddFileIn is AddFile inside the caller's transaction (a lab's report stored with the order
// it belongs to).
func AddFileIn(ctx context.Context, tx *sql.Tx, e audit.Event, patientID int64, kind, name string, data []byte, now time.Time) (File, error) {
	ct, err := ContentType(kind, data)
	if err != nil {
		return File{}, err
	}
	sum := sha256.Sum256(data)
	f := File{PatientID: patientID, Kind: kind, Name: cleanName(name), ContentType: ct, Size: int64(len(data)), CreatedAt: now}
	err = func() error {
		p, err := get(ctx, tx, patientID)
		if err != nil {
			return err
		}
		if p.Archived {
			return apperr.Conflict("patient.archived")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO patient_files (patient_id, kind, name, content_type, size, sha256, data, created_at, created_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`, patientID, kind, f.Name, ct, f.Size, hex.EncodeToString(sum[:]), data, now, e.Actor()).Scan(&f.ID); err != nil {
			return fmt.Errorf("store file: %w", err)
		}
		if kind == KindPhoto {
			if _, err := tx.ExecContext(ctx, `UPDATE patient_files SET deleted_at = $1, deleted_by = $2
				WHERE patient_id = $3 AND kind = 'photo' AND id <> $4 AND deleted_at IS NULL`, now, e.Actor(), patientID, f.ID); err != nil {
				return fmt.Errorf("replace photo: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE patients SET photo_file_id = $1 WHERE id = $2`, f.ID, patientID); err != nil {
				return fmt.Errorf("set photo: %w", err)
			}
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "patient.file.upload", "patient", strconv.FormatInt(patientID, 10), audit.Success, now
		e.Detail = fmt.Sprintf("%s %d", kind, f.ID)
		return audit.Record(ctx, tx, e)
	}()
	return f, err
}

// MarkOtherPatientIn marks, in the caller's transaction, file fileID (a lab's report linked to
// order orderID) as another patient's document: it stays, out of the routine files list,
// reachable only by someone who may record results (the laboratory clinician's review, C4).
func MarkOtherPatientIn(ctx context.Context, tx *sql.Tx, e audit.Event, fileID, orderID int64, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE patient_files SET other_patient_at = $1, other_patient_by = $2, other_patient_order = $3
		WHERE id = $4 AND other_patient_at IS NULL`, now, e.Actor(), orderID, fileID); err != nil {
		return fmt.Errorf("mark file another patient's: %w", err)
	}
	return nil
}

// MoveOtherPatientIn moves, in the caller's transaction, the report marked as another
// patient's when order orderID's results were withdrawn as such (MarkOtherPatientIn) to
// patient toPatient, its owner, once the value is refiled there: it leaves the first
// patient's record and joins the owner's files, no longer marked as another patient's but as
// refiled from another patient's record (refiled_at: amended, ISO 15189 §7.4.1.7), under a
// neutral name (the name it was uploaded with, which may carry the first patient's identity,
// is kept in name_before_refiling); the caller audits it on both. It returns the file's id, 0
// when no report was marked for that order (or it moved already).
func MoveOtherPatientIn(ctx context.Context, tx *sql.Tx, e audit.Event, orderID, toPatient int64, now time.Time) (int64, error) {
	var id int64
	var name string
	err := tx.QueryRowContext(ctx, `SELECT id, name FROM patient_files WHERE other_patient_order = $1 AND other_patient_at IS NOT NULL
		AND deleted_at IS NULL ORDER BY id DESC LIMIT 1`, orderID).Scan(&id, &name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read another patient's report: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE patient_files SET patient_id = $1, other_patient_at = NULL, other_patient_by = NULL,
		other_patient_order = NULL, refiled_at = $2, refiled_by = $3, name_before_refiling = name, name = $4 WHERE id = $5`,
		toPatient, now, e.Actor(), refiledName(id, name), id); err != nil {
		return 0, fmt.Errorf("move report: %w", err)
	}
	return id, nil
}

// refiledName is the neutral name of report id refiled from another patient's record: its
// number and the extension of the name it had, nothing else of that name.
func refiledName(id int64, name string) string {
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 && len(name)-i <= 6 {
		ext = strings.ToLower(name[i:])
		for _, c := range ext[1:] {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
				ext = ""
				break
			}
		}
	}
	return "lab-report-" + strconv.FormatInt(id, 10) + ext
}

const fileColumns = `f.id, f.patient_id, f.kind, f.name, f.content_type, f.size, f.created_at, f.other_patient_at IS NOT NULL,
	f.refiled_at IS NOT NULL`

// Files lists a patient's attachments, newest first. Those found to be another patient's
// are listed, marked, only when withOther (the caller may record results).
func (s *Store) Files(ctx context.Context, patientID int64, withOther bool) ([]File, error) {
	if _, err := s.Get(ctx, patientID); err != nil {
		return nil, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT `+fileColumns+` FROM patient_files f
		WHERE f.patient_id = $1 AND f.kind = 'attachment' AND f.deleted_at IS NULL AND ($2 OR f.other_patient_at IS NULL)
		ORDER BY f.created_at DESC, f.id DESC`, patientID, withOther)
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	defer rows.Close()
	out := []File{}
	for rows.Next() {
		var f File
		if err := rows.Scan(&f.ID, &f.PatientID, &f.Kind, &f.Name, &f.ContentType, &f.Size, &f.CreatedAt, &f.OtherPatient, &f.Refiled); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// Open returns a file and its bytes, and audits the download. fileID 0 means the current photo.
// A file found to be another patient's is not found unless withOther (the caller may record
// results).
func (s *Store) Open(ctx context.Context, e audit.Event, patientID, fileID int64, withOther bool) (File, []byte, error) {
	query := `SELECT ` + fileColumns + `, f.data FROM patient_files f WHERE f.patient_id = $1 AND f.id = $2 AND f.deleted_at IS NULL`
	args := []any{patientID, fileID}
	if fileID == 0 {
		query = `SELECT ` + fileColumns + `, f.data FROM patient_files f JOIN patients p ON p.photo_file_id = f.id WHERE p.id = $1 AND f.deleted_at IS NULL`
		args = args[:1]
	}
	var f File
	var data []byte
	err := s.DB.QueryRowContext(ctx, query, args...).Scan(&f.ID, &f.PatientID, &f.Kind, &f.Name, &f.ContentType, &f.Size, &f.CreatedAt, &f.OtherPatient, &f.Refiled, &data)
	if errors.Is(err, sql.ErrNoRows) || err == nil && f.OtherPatient && !withOther {
		return f, nil, apperr.NotFound("file.not_found")
	}
	if err != nil {
		return f, nil, fmt.Errorf("read file: %w", err)
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = "patient.file.download", "patient", strconv.FormatInt(patientID, 10), audit.Success, fmt.Sprintf("%s %d", f.Kind, f.ID)
	if f.OtherPatient {
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.file_other_patient", Args: []string{strconv.FormatInt(f.ID, 10)}})
	}
	if err := audit.Access(ctx, s.DB, e); err != nil {
		return f, nil, err
	}
	return f, data, nil
}

// DeleteFile marks a file deleted (it stays in the database) and audits it.
func (s *Store) DeleteFile(ctx context.Context, e audit.Event, patientID, fileID int64) error {
	now := s.now()
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE patient_files SET deleted_at = $1, deleted_by = $2 WHERE patient_id = $3 AND id = $4 AND deleted_at IS NULL
			AND other_patient_at IS NULL AND refiled_at IS NULL`, // another patient's report, or one refiled from there, is a record: kept
			now, e.Actor(), patientID, fileID)
		if err != nil {
			return fmt.Errorf("delete file: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("file.not_found")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE patients SET photo_file_id = NULL WHERE id = $1 AND photo_file_id = $2`, patientID, fileID); err != nil {
			return fmt.Errorf("clear photo: %w", err)
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.At, e.Detail = "patient.file.delete", "patient", strconv.FormatInt(patientID, 10), audit.Success, now, strconv.FormatInt(fileID, 10)
		return audit.Record(ctx, tx, e)
	})
}
