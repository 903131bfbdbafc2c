package auditlog

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"emr/internal/database"
)

const columns = `e.id, e.seq, e.at, e.actor_id, e.actor_name, e.action, e.entity_type, e.entity_id, e.patient_id,
	COALESCE(p.mrn, ''), e.address, e.outcome, e.detail, e.emergency, e.hash`

func scan(rows *sql.Rows) (Event, error) {
	var e Event
	var seq, actor sql.NullInt64
	err := rows.Scan(&e.ID, &seq, &e.At, &actor, &e.ActorName, &e.Action, &e.EntityType, &e.EntityID, &e.PatientID,
		&e.PatientMRN, &e.Address, &e.Outcome, &e.Detail, &e.Emergency, &e.Hash)
	if seq.Valid {
		e.Seq = &seq.Int64
	}
	if actor.Valid {
		e.ActorID = &actor.Int64
	}
	e.At = e.At.UTC()
	return e, err
}

// List answers one page of q.
func List(ctx context.Context, db database.Querier, q Query) (Page, error) {
	var page Page
	page.Meta.PerPage = q.PerPage
	where, args := q.where()
	c, backward := q.After, false
	if q.Before != nil {
		c, backward = q.Before, true
	}
	if c == nil { // later pages keep the first page's count
		var total int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM audit_events e `+where+` LIMIT `+strconv.Itoa(countCap+1)+`) t`, args...).Scan(&total); err != nil {
			return page, fmt.Errorf("count audit events: %w", err)
		}
		page.Meta.Total, page.Meta.TotalCapped = new(min(total, countCap)), total > countCap
	}
	ids, err := q.pageIDs(ctx, db, where, args, c, backward, q.PerPage+1)
	if err != nil {
		return page, fmt.Errorf("list audit events: %w", err)
	}
	if page.Data, err = byID(ctx, db, ids); err != nil {
		return page, fmt.Errorf("list audit events: %w", err)
	}
	more := len(page.Data) > q.PerPage
	if more {
		page.Data = page.Data[:q.PerPage]
	}
	if backward {
		slices.Reverse(page.Data)
	}
	if len(page.Data) > 0 {
		first, last := q.cursorOf(page.Data[0]), q.cursorOf(page.Data[len(page.Data)-1])
		// Going forward there is a page before whenever we started from a cursor, and one
		// after when the query found more; going backward, the other way round.
		if (!backward && more) || backward {
			page.Meta.Next = last.String()
		}
		if (backward && more) || (!backward && c != nil) {
			page.Meta.Prev = first.String()
		}
	}
	return page, nil
}

// byID reads the events with ids, in that order.
func byID(ctx context.Context, db database.Querier, ids []int64) ([]Event, error) {
	out := []Event{}
	if len(ids) == 0 {
		return out, nil
	}
	ph := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		ph[i], args[i] = "$"+strconv.Itoa(i+1), id
	}
	rows, err := db.QueryContext(ctx, `SELECT `+columns+` FROM audit_events e LEFT JOIN patients p ON p.id = e.patient_id AND e.patient_id <> 0
		WHERE e.id IN (`+strings.Join(ph, ", ")+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := map[int64]Event{}
	for rows.Next() {
		e, err := scan(rows)
		if err != nil {
			return nil, err
		}
		found[e.ID] = e
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		out = append(out, found[id])
	}
	return out, nil
}

// cursorOf is e's position in q's sort.
func (q Query) cursorOf(e Event) cursor {
	return cursor{Values: sortKeys[q.Sort].values(e), ID: e.ID}
}

// Rows are the events of an export, read one at a time.
type Rows struct{ rows *sql.Rows }

// Export reads every event of q's filter, in its order, for streaming.
func Export(ctx context.Context, db database.Querier, q Query) (*Rows, error) {
	where, args := q.where()
	rows, err := db.QueryContext(ctx, `SELECT `+columns+` FROM audit_events e LEFT JOIN patients p ON p.id = e.patient_id AND e.patient_id <> 0 `+where+` `+q.orderBy(false), args...)
	if err != nil {
		return nil, fmt.Errorf("export audit events: %w", err)
	}
	return &Rows{rows: rows}, nil
}

// Next moves to the next event; false at the end or on an error.
func (r *Rows) Next() bool { return r.rows.Next() }

// Event reads the current event.
func (r *Rows) Event() (Event, error) { return scan(r.rows) }

// Close ends the read.
func (r *Rows) Close() error { return r.rows.Close() }
