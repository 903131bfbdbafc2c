package audit

import (
	"context"
	"fmt"

	"emr/internal/database"
)

// Report is what Verify found.
type Report struct {
	Checked int64  // events in the chain, read and recomputed
	Legacy  int64  // events written before the chain existed (outside it)
	Head    string // the hash of the last event: written down elsewhere, it anchors the log
	Broken  *Break // the first broken link, nil when the chain is whole
}

// Break is the first place where the chain does not hold.
type Break struct {
	Seq    int64  // the position where it breaks
	ID     int64  // the event's row id, 0 when the event is missing
	Reason string // one sentence
}

// Verify walks the chain from its first event, recomputing every hash, and reports the
// first event that was changed, removed or inserted outside Record.
func Verify(ctx context.Context, db *database.DB) (Report, error) {
	var r Report
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_events WHERE seq IS NULL`).Scan(&r.Legacy); err != nil {
		return r, fmt.Errorf("verify audit chain: %w", err)
	}
	var headSeq int64
	var head string
	if err := db.QueryRowContext(ctx, `SELECT seq, hash FROM audit_chain WHERE id = 1`).Scan(&headSeq, &head); err != nil {
		return r, fmt.Errorf("verify audit chain: the chain's head is missing: %w", err)
	}
	rows, err := db.QueryContext(ctx, `SELECT id, seq, at, COALESCE(actor_id, 0), actor_name, action, entity_type, entity_id,
		patient_id, address, outcome, detail, emergency, prev_hash, hash
		FROM audit_events WHERE seq IS NOT NULL ORDER BY seq`)
	if err != nil {
		return r, fmt.Errorf("verify audit chain: %w", err)
	}
	defer rows.Close()
	var want int64 = 1
	prev := ""
	for rows.Next() {
		var e Event
		var id, seq int64
		var prevHash, hash string
		if err := rows.Scan(&id, &seq, &e.At, &e.ActorID, &e.ActorName, &e.Action, &e.EntityType, &e.EntityID,
			&e.PatientID, &e.Address, &e.Outcome, &e.Detail, &e.Emergency, &prevHash, &hash); err != nil {
			return r, fmt.Errorf("verify audit chain: %w", err)
		}
		switch {
		case seq != want:
			r.Broken = &Break{Seq: want, Reason: fmt.Sprintf("event %d is missing (the next one found is %d)", want, seq)}
		case prevHash != prev:
			r.Broken = &Break{Seq: seq, ID: id, Reason: fmt.Sprintf("event %d does not follow from event %d: the event before it was changed or replaced", seq, seq-1)}
		case chainHash(prevHash, seq, e) != hash:
			r.Broken = &Break{Seq: seq, ID: id, Reason: fmt.Sprintf("event %d was changed after it was written", seq)}
		}
		if r.Broken != nil {
			return r, nil
		}
		r.Checked, prev, want = r.Checked+1, hash, want+1
	}
	if err := rows.Err(); err != nil {
		return r, fmt.Errorf("verify audit chain: %w", err)
	}
	switch {
	case headSeq != r.Checked:
		r.Broken = &Break{Seq: r.Checked + 1, Reason: fmt.Sprintf("the log ends at event %d but %d were written: the last ones were removed", r.Checked, headSeq)}
	case head != prev:
		r.Broken = &Break{Seq: r.Checked, Reason: fmt.Sprintf("the last event, %d, is not the one that was written", r.Checked)}
	}
	r.Head = prev
	return r, nil
}
