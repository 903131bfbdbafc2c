-- +goose Up
-- Every read of a bill (a payment answers with its bill) asks for the bill that replaced it:
-- by an index of the few replacements, not a walk of every bill from the newest, which is
-- what MAX(id) … WHERE replaces_id = ? made of a bill that was not replaced (nearly all).
CREATE INDEX bills_replaced ON bills (replaces_id) WHERE replaces_id IS NOT NULL;
