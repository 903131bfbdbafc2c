-- +goose Up
-- The attacker's review of 2026-11-29, M2 (calendar denial): a booking request keeps the
-- network it came from (auth.AddressBlock of the client) and its contact's key (a phone by its
-- national digits, an e-mail in lower case, as the code's throttle counts it), so the public
-- page can cap the requests still open per contact and per network. Rows from before carry
-- '' and count for nobody.
ALTER TABLE booking_requests ADD COLUMN client_block TEXT NOT NULL DEFAULT '';
ALTER TABLE booking_requests ADD COLUMN contact_key TEXT NOT NULL DEFAULT '';
CREATE INDEX booking_requests_client_block ON booking_requests (client_block, status);
CREATE INDEX booking_requests_contact_key ON booking_requests (contact_key, status);
