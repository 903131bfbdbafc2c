-- +goose Up
-- Every numbered paper has a series of its own (BL- bills, PR- payment receipts, RS- refund
-- slips; documents MC-, FW-, RF-, LR-…); a receipt's number is given once, whatever writes.
CREATE UNIQUE INDEX payments_receipt ON payments (receipt);

-- +goose Down
DROP INDEX payments_receipt;
