package billing

import (
	"context"
	"database/sql"
	"emr/internal/database"
	"time"
)

// The fee reports over a date range read sums kept per clinic day (migration 17, ADR 22,
// ADR 33): a bill counts on the day it was finalised, and the store moves the sums through its
// DayBook in the transaction that changes the bill.

// Today is the clinic's calendar day now.
func (s *Store) Today() string { return s.dayOf(s.now()) }

// dayOf is the clinic's calendar day of t.
func (s *Store) dayOf(t time.Time) string { return t.In(s.loc()).Format(time.DateOnly) }

// DayBook keeps, in a write's own transaction, the per-day sums the fee reports read (the
// read model internal/feereport owns them, as the dashboard owns its counts): a bill
// finalised (sign 1) or withdrawn (-1), and money paid or refunded on a day with what a refund
// credited off the doctor's revenue. It answers how many bills are final in all (the bill
// list counts its paid bills from it). The server hands the store its book.
type DayBook interface {
	CountBill(ctx context.Context, tx *sql.Tx, day string, b Bill, sign int64) error
	CountMoney(ctx context.Context, tx *sql.Tx, day string, doctor int64, paid, credited Money) error
	Finals(ctx context.Context, q database.Querier) (int, error)
}

// days is the store's day book; a store without one is a wiring mistake that would leave
// the reports behind the bills, so it stops the write.
func (s *Store) days() DayBook {
	if s.Days == nil {
		panic("billing: the store has no day book (Store.Days)")
	}
	return s.Days
}
