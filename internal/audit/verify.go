package audit

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"emr/internal/database"
)

// Report is what Verify found.
type Report struct {
	Checked int64  // events in the chain, read and recomputed
	Legacy  int64  // events written before the chain existed (outside it)
	Head    string // the hash of the last event: written down elsewhere, it anchors the log
	Broken  *Break // the first broken link, nil when the chain is whole
	// Unsealed events are written and not yet chained; OldestUnsealed is how long the
	// oldest has waited (over SealBound means the sealer is not running).
	Unsealed       int64
	OldestUnsealed time.Duration
	// Late counts events chained more than SealBound after their time (after a crash the
	// next start chains what was left; otherwise a sign of an event written late or
	// back-dated); FirstLate is the position of the first.
	Late      int64
	FirstLate int64
}

// Break is the first place where the chain does not hold.
type Break struct {
	Seq    int64  // the position where it breaks
	ID     int64  // the event's row id, 0 when the event is missing
	Reason string // one sentence
}

// lateSkew is how far an event's time may be after its seal's (clocks of two instances).
const lateSkew = 5 * time.Second

// seal is one batch's head as audit_seals keeps it.
type seal struct {
	lastSeq  int64
	hash     string
	sealedAt sql.NullTime
}

// Verify walks the chain from its first event, recomputing every hash, and reports the
// first event that was changed, removed, inserted or reordered after it was chained, and
// the first batch head that no longer matches its last event. It also reports the events
// waiting to be chained and those chained late.
func Verify(ctx context.Context, db *database.DB) (Report, error) {
	var r Report
	fail := func(err error) (Report, error) { return r, fmt.Errorf("verify audit chain: %w", err) }
	var headSeq, legacyThrough int64
	var head string
	if err := db.QueryRowContext(ctx, `SELECT seq, hash, legacy_through FROM audit_chain WHERE id = 1`).Scan(&headSeq, &head, &legacyThrough); err != nil {
		return r, fmt.Errorf("verify audit chain: the chain's head is missing: %w", err)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_events WHERE seq IS NULL AND id <= $1`, legacyThrough).Scan(&r.Legacy); err != nil {
		return fail(err)
	}
	var err error
	if r.Unsealed, r.OldestUnsealed, err = Backlog(ctx, db, time.Now()); err != nil {
		return fail(err)
	}
	seals, err := openSeals(ctx, db)
	if err != nil {
		return fail(err)
	}
	defer seals.close()
	rows, err := db.QueryContext(ctx, `SELECT id, seq, at, COALESCE(actor_id, 0), actor_name, action, entity_type, entity_id,
		patient_id, address, outcome, detail, emergency, COALESCE(credential, ''), prev_hash, hash
		FROM audit_events WHERE seq IS NOT NULL ORDER BY seq`)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	var want int64 = 1
	prev := ""
	for rows.Next() {
		var e Event
		var id, seq int64
		var prevHash, hash string
		if err := rows.Scan(&id, &seq, &e.At, &e.ActorID, &e.ActorName, &e.Action, &e.EntityType, &e.EntityID,
			&e.PatientID, &e.Address, &e.Outcome, &e.Detail, &e.Emergency, &e.Credential, &prevHash, &hash); err != nil {
			return fail(err)
		}
		batch, err := seals.covering(seq) // the seal of the batch the event is in, nil for none
		if err != nil {
			return fail(err)
		}
		switch {
		case seq != want:
			r.Broken = &Break{Seq: want, Reason: fmt.Sprintf("event %d is missing (the next one found is %d)", want, seq)}
		case prevHash != prev:
			r.Broken = &Break{Seq: seq, ID: id, Reason: fmt.Sprintf("event %d does not follow from event %d: the event before it was changed or replaced", seq, seq-1)}
		case chainHash(prevHash, seq, e) != hash:
			r.Broken = &Break{Seq: seq, ID: id, Reason: fmt.Sprintf("event %d was changed after it was written", seq)}
		case batch == nil:
			r.Broken = &Break{Seq: seq, ID: id, Reason: fmt.Sprintf("event %d is in no sealed batch: it was added after the last seal", seq)}
		case batch.lastSeq == seq && batch.hash != hash:
			r.Broken = &Break{Seq: seq, ID: id, Reason: fmt.Sprintf("event %d is not the one its batch was sealed with", seq)}
		}
		if r.Broken != nil {
			return r, nil
		}
		if batch.sealedAt.Valid {
			if gap := batch.sealedAt.Time.Sub(e.At); gap > SealBound || gap < -lateSkew {
				if r.Late == 0 {
					r.FirstLate = seq
				}
				r.Late++
			}
		}
		r.Checked, prev, want = r.Checked+1, hash, want+1
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	switch {
	case headSeq != r.Checked:
		r.Broken = &Break{Seq: r.Checked + 1, Reason: fmt.Sprintf("the log ends at event %d but %d were written: the last ones were removed", r.Checked, headSeq)}
	case head != prev:
		r.Broken = &Break{Seq: r.Checked, Reason: fmt.Sprintf("the last event, %d, is not the one that was written", r.Checked)}
	default:
		last, err := seals.last()
		if err != nil {
			return fail(err)
		}
		if last != nil && last.lastSeq != headSeq {
			r.Broken = &Break{Seq: headSeq, Reason: fmt.Sprintf("the last sealed batch ends at event %d, not at the head, %d", last.lastSeq, headSeq)}
		}
	}
	r.Head = prev
	return r, nil
}

// seals reads the batch heads in order, alongside the events (a second cursor: there is a
// batch for every second the clinic worked).
type seals struct {
	rows *sql.Rows
	cur  *seal // the batch the last call was in; nil once past the last batch
	seen *seal // the last batch read
	done bool
}

func openSeals(ctx context.Context, db *database.DB) (*seals, error) {
	rows, err := db.QueryContext(ctx, `SELECT last_seq, hash, sealed_at FROM audit_seals ORDER BY last_seq`)
	if err != nil {
		return nil, err
	}
	return &seals{rows: rows}, nil
}

// covering returns the first batch whose last event is at seq or after it, nil when none is.
// Calls come in increasing seq.
func (s *seals) covering(seq int64) (*seal, error) {
	for !s.done && (s.cur == nil || s.cur.lastSeq < seq) {
		if !s.rows.Next() {
			s.done, s.cur = true, nil
			return nil, s.rows.Err()
		}
		var next seal
		if err := s.rows.Scan(&next.lastSeq, &next.hash, &next.sealedAt); err != nil {
			return nil, err
		}
		s.cur, s.seen = &next, &next
	}
	return s.cur, nil
}

// last returns the last batch, reading past the ones left.
func (s *seals) last() (*seal, error) {
	for !s.done {
		from := int64(1)
		if s.seen != nil {
			from = s.seen.lastSeq + 1
		}
		if _, err := s.covering(from); err != nil {
			return nil, err
		}
	}
	return s.seen, nil
}

func (s *seals) close() { s.rows.Close() }
