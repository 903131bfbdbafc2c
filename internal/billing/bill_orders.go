package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/catalogue"
)

// ChargeOrder charges lab order orderID, of a test charged as serviceCode, on the bill of visit
// appointmentID (writing the bill if the visit has none), inside the order's transaction: once
// per order, however often it is told. A charge of the same service the desk or the doctor put
// on by hand before is taken as the order's rather than charged twice. Nothing is charged when
// the test names no active service, or the bill is no longer a draft: the desk sees the order
// as not charged (OrdersOf) and decides (ADR 41). It is the results store's OrderCharges.
func (s *Store) ChargeOrder(ctx context.Context, tx *sql.Tx, e audit.Event, appointmentID, orderID int64, serviceCode string) error {
	if serviceCode == "" {
		return nil
	}
	sv, err := serviceByCode(ctx, tx, serviceCode)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !sv.Active) {
		return nil
	}
	if err != nil {
		return err
	}
	visit, err := appointment.BasicsOf(ctx, tx, appointmentID)
	if err != nil || visit.Status == appointment.Cancelled {
		return err
	}
	id, _, err := s.openBill(ctx, tx, e, appointmentID)
	if err != nil {
		return err
	}
	b, err := lock(ctx, tx, id)
	if err != nil || b.Status != Draft {
		return err
	}
	var charged bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM bill_lines WHERE bill_id = $1 AND lab_order_id = $2)`, id, orderID).Scan(&charged); err != nil {
		return fmt.Errorf("read bill lines: %w", err)
	}
	if charged {
		return nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE bill_lines SET lab_order_id = $1, by_order = 1 WHERE id = (SELECT MIN(id) FROM bill_lines
		WHERE bill_id = $2 AND service_id = $3 AND lab_order_id IS NULL AND quantity = 1)`, orderID, id, sv.ID)
	if err != nil {
		return fmt.Errorf("link bill line: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	l, err := line(ctx, tx, LineInput{ServiceID: &sv.ID, Quantity: 1}, false)
	if err != nil {
		return err
	}
	l.LabOrderID, l.ByOrder = &orderID, true
	if err := s.insertLine(ctx, tx, e, id, l); err != nil {
		return err
	}
	return s.retotal(ctx, tx, e, id, -1)
}

// UnchargeOrder takes lab order orderID's charge off its bill while that bill is a draft: the
// line the order put there (ByOrder) goes; a line the desk marked by hand as its charge (a
// consultation picked by mistake, a written-out charge) stays on the bill, only unmarked, so
// withdrawing a test never takes another charge with it (the cashier's review, C1). A final
// bill keeps it (its lines never change, ADR 22): the desk sees the cancelled order still
// charged and may refund it (OrdersOf).
func (s *Store) UnchargeOrder(ctx context.Context, tx *sql.Tx, e audit.Event, orderID int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT l.id, l.bill_id, l.by_order FROM bill_lines l JOIN bills b ON b.id = l.bill_id
		WHERE l.lab_order_id = $1 AND b.status = 'draft'`, orderID)
	if err != nil {
		return fmt.Errorf("read bill lines: %w", err)
	}
	type charge struct {
		line, bill int64
		own        int
	}
	var charges []charge
	for rows.Next() {
		var c charge
		if err := rows.Scan(&c.line, &c.bill, &c.own); err != nil {
			rows.Close()
			return err
		}
		charges = append(charges, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range charges {
		if _, err := draft(ctx, tx, c.bill); err != nil {
			return err
		}
		q := `DELETE FROM bill_lines WHERE id = $1`
		if c.own != 1 {
			q = `UPDATE bill_lines SET lab_order_id = NULL WHERE id = $1`
		}
		if _, err := tx.ExecContext(ctx, q, c.line); err != nil {
			return fmt.Errorf("remove bill line: %w", err)
		}
		if err := s.retotal(ctx, tx, e, c.bill, -1); err != nil {
			return err
		}
	}
	return nil
}

// MoveCharge makes the line charging withdrawn order from, on the visit's draft bill, the
// charge of order to, the same test ordered again (a specimen rejected after collection): one
// test, charged once. A final bill's lines never change (ADR 22): there the new order is not
// charged either (ChargeOrder charges no final bill), and the desk sees both. It says whether
// a line moved.
func (s *Store) MoveCharge(ctx context.Context, tx *sql.Tx, from, to int64) (bool, error) {
	res, err := tx.ExecContext(ctx, `UPDATE bill_lines SET lab_order_id = $1 WHERE lab_order_id = $2
		AND bill_id IN (SELECT id FROM bills WHERE status = 'draft')
		AND NOT EXISTS (SELECT 1 FROM bill_lines o WHERE o.bill_id = bill_lines.bill_id AND o.lab_order_id = $1)`, to, from)
	if err != nil {
		return false, fmt.Errorf("move charge: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// VisitOrder is a lab order of a visit as billing sees it: its test and its state.
type VisitOrder struct {
	ID     int64
	Test   string
	Label  string
	Status string
	// Collected: its specimen was taken (before it was withdrawn, if it was): the clinic bore
	// the cost, so a charge stays on the bill (ADR 41 item 3).
	Collected bool
}

// OrderCharge is a visit's lab order beside its bill: whether it is charged there, and what
// the desk should know when it is not.
type OrderCharge struct {
	OrderID int64  `json:"order_id"`
	Test    string `json:"test"`
	Label   string `json:"label"`
	Status  string `json:"status"`
	// LineID is the bill line that charges it (nil: not charged on the bill in force).
	LineID *int64 `json:"line_id"`
	// Linked: its test names an active price-list service. An order of a test that does not
	// is never charged by itself; the desk charges it by hand or has the test linked.
	Linked bool `json:"linked"`
	// ServiceInactive: its test names a price-list service that is deactivated (so not Linked):
	// the desk is told so, not that no service is linked.
	ServiceInactive bool `json:"service_inactive"`
	// ServiceID is the active service its test is charged as (nil when not Linked): what the
	// desk's "Charge" adds, which the bill then takes as this order's (ADR 41).
	ServiceID *int64 `json:"service_id"`
	// Withdrawn: cancelled or not done; still charged on a final bill, a refund to consider
	// unless Collected.
	Withdrawn bool `json:"withdrawn"`
	// Collected: its specimen was taken before it was withdrawn (not done after collection):
	// its charge stays, nothing for the desk to refund (ADR 41 item 3; the cashier's review, M2).
	Collected bool `json:"collected"`
	// ZeroPrice: the line charging it charges nothing: at price 0 (a starter list not yet
	// priced), or its share wholly credited by a refund. On the bill, but not counted as
	// charged; a withdrawn order's line so credited is settled (the cashier's review, M1, M2).
	ZeroPrice bool `json:"zero_price"`
	// IncludedIn is the label of another test ordered on the visit that reports every analyte
	// of this one (a panel and its member: CMP includes BMP): charging both charges the member
	// twice, so the desk is told ('' for none).
	IncludedIn string `json:"included_in"`
	// ListPrice is the price of the service its test is charged as (active or not), nil when
	// its test names none: the desk sees it when marking a line as the order's charge (M3).
	ListPrice *Money `json:"list_price"`
}

// OrderCharges is what a visit's bill charges of its lab orders: the orders still wanted
// (Ordered) and how many of them are charged (Charged), and each order.
type OrderCharges struct {
	Ordered int           `json:"ordered"`
	Charged int           `json:"charged"`
	Orders  []OrderCharge `json:"orders"`
}

// OrdersOf answers the lab orders of visit appointmentID beside its bill in force, labels in
// lang. Orders are read through the Orders hook (the results store, wired by the server).
func (s *Store) OrdersOf(ctx context.Context, appointmentID int64, lang string) (OrderCharges, error) {
	out := OrderCharges{Orders: []OrderCharge{}}
	if _, err := appointment.BasicsOf(ctx, s.DB, appointmentID); err != nil {
		return out, err
	}
	if s.Orders == nil {
		return out, nil
	}
	orders, err := s.Orders(ctx, appointmentID, lang)
	if err != nil || len(orders) == 0 {
		return out, err
	}
	codes := make([]string, 0, len(orders))
	for _, o := range orders {
		codes = append(codes, o.Test)
	}
	slices.Sort(codes)
	tests, err := catalogue.OrderedTests(ctx, s.DB, slices.Compact(codes), lang)
	if err != nil {
		return out, err
	}
	lineOf, free := map[int64]int64{}, map[int64]bool{}
	rows, err := s.DB.QueryContext(ctx, `SELECT l.id, l.bill_id, l.lab_order_id FROM bill_lines l JOIN bills b ON b.id = l.bill_id
		WHERE b.appointment_id = $1 AND b.status <> 'void' AND l.lab_order_id IS NOT NULL`, appointmentID)
	if err != nil {
		return out, fmt.Errorf("read bill lines: %w", err)
	}
	billOf := map[int64]int64{}
	for rows.Next() {
		var line, bill, order int64
		if err := rows.Scan(&line, &bill, &order); err != nil {
			rows.Close()
			return out, err
		}
		lineOf[order], billOf[order] = line, bill
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	// A line charges what is left of its share once refunds have credited it: a line refunded
	// as not given reads like one at price 0 (the cashier's review, M1).
	for order, line := range lineOf {
		share, credited, err := lineShare(ctx, s.DB, billOf[order], line)
		if err != nil {
			return out, fmt.Errorf("read bill line: %w", err)
		}
		free[order] = share-credited <= 0
	}
	linked, inactive, price := map[string]*int64{}, map[string]bool{}, map[string]*Money{}
	for _, o := range orders {
		code := tests[o.Test].ServiceCode
		if _, seen := linked[code]; !seen && code != "" {
			sv, err := serviceByCode(ctx, s.DB, code)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return out, err
			}
			if err == nil {
				price[code] = &sv.Price
			}
			if err == nil && sv.Active {
				linked[code] = &sv.ID
			} else {
				linked[code], inactive[code] = nil, err == nil
			}
		}
		c := OrderCharge{OrderID: o.ID, Test: o.Test, Label: o.Label, Status: o.Status, Linked: linked[code] != nil,
			ServiceInactive: inactive[code], ServiceID: linked[code], Withdrawn: o.Status == "cancelled" || o.Status == "not_done",
			Collected: o.Collected, ListPrice: price[code]}
		if line, ok := lineOf[o.ID]; ok {
			c.LineID, c.ZeroPrice = &line, free[o.ID]
		}
		if c.Withdrawn && c.LineID == nil {
			continue // withdrawn and not charged: nothing for the desk to do
		}
		if !c.Withdrawn {
			out.Ordered++
			if c.LineID != nil && !c.ZeroPrice {
				out.Charged++
			}
		}
		out.Orders = append(out.Orders, c)
	}
	return out, s.markIncluded(ctx, out.Orders)
}

// markIncluded names, on each wanted order, a wanted order of a larger test that reports all
// of its analytes (the largest such), so the desk sees "CMP includes BMP, ELEC".
func (s *Store) markIncluded(ctx context.Context, orders []OrderCharge) error {
	codes := make([]string, 0, len(orders))
	for _, o := range orders {
		if !o.Withdrawn {
			codes = append(codes, o.Test)
		}
	}
	if len(codes) < 2 {
		return nil
	}
	slices.Sort(codes)
	analytes, err := catalogue.TestAnalytes(ctx, s.DB, slices.Compact(codes))
	if err != nil {
		return err
	}
	for i := range orders {
		member := analytes[orders[i].Test]
		if orders[i].Withdrawn || len(member) == 0 {
			continue
		}
		best := 0
		for _, p := range orders {
			panel := analytes[p.Test]
			if p.Withdrawn || p.Test == orders[i].Test || len(panel) <= best {
				continue
			}
			if catalogue.Includes(panel, member) {
				orders[i].IncludedIn, best = p.Label, len(panel)
			}
		}
	}
	return nil
}

// wantedOrders answers the lab orders still wanted on the visit of bill id (or of visit
// appointmentID), by the price-list code each test is charged as, oldest first: a charge of
// that service the desk adds by hand is taken as one of them (adopter). Read before the
// line's transaction, through the Orders hook, as billing may not read the results tables.
func (s *Store) wantedOrders(ctx context.Context, id, appointmentID int64) (map[string][]int64, error) {
	orders, err := s.ordersOfBill(ctx, id, appointmentID)
	if err != nil || len(orders) == 0 {
		return nil, err
	}
	codes := make([]string, 0, len(orders))
	for _, o := range orders {
		codes = append(codes, o.Test)
	}
	slices.Sort(codes)
	tests, err := catalogue.OrderedTests(ctx, s.DB, slices.Compact(codes), "en")
	if err != nil {
		return nil, err
	}
	out := map[string][]int64{}
	for _, o := range orders {
		if code := tests[o.Test].ServiceCode; code != "" && o.Status != "cancelled" && o.Status != "not_done" {
			out[code] = append(out[code], o.ID)
		}
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out, nil
}

// ordersOfBill reads, through the Orders hook, the lab orders of the visit of bill id (or of
// visit appointmentID): none for a walk-in bill, or when no hook is wired.
func (s *Store) ordersOfBill(ctx context.Context, id, appointmentID int64) ([]VisitOrder, error) {
	if s.Orders == nil {
		return nil, nil
	}
	if appointmentID == 0 {
		var visit sql.NullInt64
		err := s.DB.QueryRowContext(ctx, `SELECT appointment_id FROM bills WHERE id = $1`, id).Scan(&visit)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read bill: %w", err)
		}
		if !visit.Valid {
			return nil, nil // a walk-in bill, or none: the caller's transaction says which
		}
		appointmentID = visit.Int64
	}
	return s.Orders(ctx, appointmentID, "en")
}

// adopter answers the order that line l, about to be added by hand to bill id, charges: the
// oldest wanted order of its service not yet charged on that bill. A line of more than one
// unit is no single order's (cancelling the order would take every unit off).
func adopter(ctx context.Context, tx *sql.Tx, id int64, l Line, wanted map[string][]int64) (*int64, error) {
	if l.ServiceID == nil || l.Quantity != 1 {
		return nil, nil
	}
	for _, order := range wanted[l.Code] {
		var charged bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM bill_lines WHERE bill_id = $1 AND lab_order_id = $2)`, id, order).Scan(&charged); err != nil {
			return nil, fmt.Errorf("read bill lines: %w", err)
		}
		if !charged {
			return &order, nil
		}
	}
	return nil, nil
}

// LinkInput names the lab order a bill line charges.
type LinkInput struct {
	OrderID int64 `json:"order_id"`
	// Version is the bill's version the desk saw (409 when it changed since).
	Version int `json:"version"`
	// OverridePrice says the caller may override prices (set by the handler): a line whose unit
	// price differs from the test's list price is marked only by one who may (the review of the
	// blind count, finding 6).
	OverridePrice bool `json:"-"`
}

// LinkOrder records that line lineID of bill id, added by hand (a charge written out, not on
// the price list, or of the test's own service), is what charges lab order in.OrderID of the
// bill's visit, so the order stops waiting on the desk's list (the clinic manager's run,
// 2026-11-29: a CRP charged as a free-text line stayed "not charged" for good and invited a
// second charge). It changes no amount, so a final bill takes it too; audited. The line must
// be one unit, charge no other order and still charge something (not at price 0, not wholly
// credited by a refund: the cashier's review, M1); it must be written out or of the test's own
// service, never another service such as the consultation (C1). The order must be wanted (not
// cancelled or not done) and charged by no other line of the bill. The mark is the desk's, not
// the order's (ByOrder false): withdrawing the order unmarks the line and leaves it on the bill.
func (s *Store) LinkOrder(ctx context.Context, e audit.Event, id, lineID int64, in LinkInput) (Bill, error) {
	orders, err := s.ordersOfBill(ctx, id, 0)
	if err != nil {
		return Bill{}, err
	}
	i := slices.IndexFunc(orders, func(o VisitOrder) bool { return o.ID == in.OrderID })
	var v apperr.Validation
	switch {
	case i < 0:
		v.Add("order_id", "billing.order_not_on_visit")
	case orders[i].Status == "cancelled" || orders[i].Status == "not_done":
		v.Add("order_id", "billing.order_withdrawn")
	}
	if err := v.Err(); err != nil {
		return Bill{}, err
	}
	tests, err := catalogue.OrderedTests(ctx, s.DB, []string{orders[i].Test}, "en")
	if err != nil {
		return Bill{}, err
	}
	own := tests[orders[i].Test].ServiceCode
	var b Bill
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		cur, err := lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur.Status == Void {
			return apperr.Conflict("billing.already_void")
		}
		if cur.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		var quantity int
		var order, service sql.NullInt64
		var description, code string
		var unit Money
		err = tx.QueryRowContext(ctx, `SELECT quantity, lab_order_id, description, service_id, code, unit_price FROM bill_lines WHERE id = $1 AND bill_id = $2`,
			lineID, id).Scan(&quantity, &order, &description, &service, &code, &unit)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.NotFound("billing.line_not_found")
		}
		if err != nil {
			return fmt.Errorf("read bill line: %w", err)
		}
		share, credited, err := lineShare(ctx, tx, id, lineID)
		if err != nil {
			return fmt.Errorf("read bill line: %w", err)
		}
		switch {
		case order.Valid:
			return apperr.Conflict("billing.line_charges_order")
		case quantity != 1:
			v.Add("line_id", "billing.line_one_unit")
		case service.Valid && (own == "" || code != own):
			v.Add("line_id", "billing.line_other_service")
		case share-credited <= 0:
			v.Add("line_id", "billing.line_charges_nothing")
		}
		if err := v.Err(); err != nil {
			return err
		}
		// The line's unit price, before its own discount, against the test's list price: a line
		// priced otherwise charges the test at another price, which only one who may override
		// prices may accept (the review of the blind count, finding 6).
		if own != "" && !in.OverridePrice {
			sv, err := serviceByCode(ctx, tx, own)
			switch {
			case err != nil && !errors.Is(err, sql.ErrNoRows):
				return err
			case err == nil && sv.Price != unit:
				set, err := ReadSettings(ctx, tx)
				if err != nil {
					return err
				}
				v.AddWith("line_id", "billing.link_price_differs", amountIn(unit, set.Currency), amountIn(sv.Price, set.Currency))
				return v.Err()
			}
		}
		var charged bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM bill_lines WHERE bill_id = $1 AND lab_order_id = $2)`, id, in.OrderID).Scan(&charged); err != nil {
			return fmt.Errorf("read bill lines: %w", err)
		}
		if charged {
			return apperr.Conflict("billing.order_charged")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bill_lines SET lab_order_id = $1 WHERE id = $2`, in.OrderID, lineID); err != nil {
			return fmt.Errorf("link bill line: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bills SET version = version + 1 WHERE id = $1`, id); err != nil {
			return fmt.Errorf("update bill: %w", err)
		}
		if b, err = get(ctx, tx, id); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.link_order", "bill", strconv.FormatInt(id, 10), b.Patient.ID, audit.Success
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.line_charges", Args: []string{description, orders[i].Label}})
		return audit.Record(ctx, tx, e)
	})
	return b, err
}

// UnlinkInput is why a supervisor takes a hand mark off a line.
type UnlinkInput struct {
	Reason  string `json:"reason"`
	Version int    `json:"version"`
}

// UnlinkOrder takes off line lineID of bill id the mark the desk set by hand (LinkOrder): a
// wrong pick on a final bill, where the line itself may not change, is corrected so the right
// line can be marked (the cashier's review, M3). A supervisor's act (it is routed under the
// void permission), with a reason, audited; it moves no money. A line the order put on the bill
// itself is not a mark (ByOrder): it is refunded or, on a draft, removed.
func (s *Store) UnlinkOrder(ctx context.Context, e audit.Event, id, lineID int64, in UnlinkInput) (Bill, error) {
	reason, err := apperr.Reason(in.Reason)
	if err != nil {
		return Bill{}, err
	}
	var b Bill
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		cur, err := lock(ctx, tx, id)
		switch {
		case err != nil:
			return err
		case cur.Status == Void:
			return apperr.Conflict("billing.already_void")
		case cur.Version != in.Version:
			return apperr.Conflict("error.conflict")
		}
		var order sql.NullInt64
		var own int
		var description string
		err = tx.QueryRowContext(ctx, `SELECT lab_order_id, by_order, description FROM bill_lines WHERE id = $1 AND bill_id = $2`,
			lineID, id).Scan(&order, &own, &description)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return apperr.NotFound("billing.line_not_found")
		case err != nil:
			return fmt.Errorf("read bill line: %w", err)
		case !order.Valid:
			return apperr.Conflict("billing.line_not_marked")
		case own == 1:
			return apperr.Conflict("billing.line_order_own")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bill_lines SET lab_order_id = NULL WHERE id = $1`, lineID); err != nil {
			return fmt.Errorf("unlink bill line: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bills SET version = version + 1 WHERE id = $1`, id); err != nil {
			return fmt.Errorf("update bill: %w", err)
		}
		if b, err = get(ctx, tx, id); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "bill.unlink_order", "bill", strconv.FormatInt(id, 10), b.Patient.ID, audit.Success
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.line_unmarked", Args: []string{description}},
			audit.Phrase{Key: "audit.detail.reason", Args: []string{reason}})
		return audit.Record(ctx, tx, e)
	})
	return b, err
}
