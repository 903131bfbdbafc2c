-- +goose Up
-- The attacker's review of the one-time codes and booking caps, 2026-11-29 (ADR 43): a
-- booking request also keeps its client's IPv6 /48 (auth.AddressSite; '' for IPv4), so that
-- the cap on open requests per network counts a site's many /64s together. Rows from before
-- carry '' and count only by their /64.
ALTER TABLE booking_requests ADD COLUMN client_site TEXT NOT NULL DEFAULT '';
CREATE INDEX booking_requests_client_site ON booking_requests (client_site, status);

