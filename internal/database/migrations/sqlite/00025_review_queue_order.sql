-- +goose Up
-- The review queue reads a doctor's results critical first, then abnormal, then the oldest
-- (ORDER BY attention DESC, resulted_at, id). An index in that very order lets the first page
-- stop at 100 rows; the index of 00024 (attention ascending) made both engines sort every
-- waiting result first — 28 ms for a doctor with 10,000 waiting (bench/README.md, results).
DROP INDEX lab_orders_review;
CREATE INDEX lab_orders_review ON lab_orders (ordered_by, to_review, attention DESC, resulted_at, id);
