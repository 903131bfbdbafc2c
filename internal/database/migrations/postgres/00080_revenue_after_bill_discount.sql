-- +goose Up
-- Revenue by service counts each line's share of what its bill asks: its amount less its part
-- of the bill's own discount (what the lines come to less the bill's total, shared in
-- proportion and rounded half up, as a refund naming the line credits it), so a line wholly
-- credited reads 0 (the cashier's review of 2026-11-29, M8). The days' service sums are counted
-- again from the final bills on that basis.
DELETE FROM bill_day_services;
INSERT INTO bill_day_services (day, code, label, name, quantity, amount)
  SELECT b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END, MIN(l.description), SUM(l.quantity),
    SUM(l.amount - CASE WHEN s.lines > b.total THEN (l.amount * (s.lines - b.total) + s.lines / 2) / s.lines ELSE 0 END)
  FROM bill_lines l JOIN bills b ON b.id = l.bill_id
    -- SUM of a bigint is numeric on PostgreSQL: cast back, so that the shares divide as integers,
    -- as on SQLite and in billing.ShareOfDiscount (a numeric share rounded differently).
    JOIN (SELECT bill_id, SUM(amount)::bigint AS lines FROM bill_lines GROUP BY bill_id) s ON s.bill_id = b.id
  WHERE b.status = 'final' AND b.day IS NOT NULL
  GROUP BY b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END;
