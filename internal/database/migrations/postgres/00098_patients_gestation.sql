-- +goose Up
-- Issue 59: children's growth. The gestational age at birth in completed weeks (22-44), when
-- known: a child born before 37 weeks is scored at the corrected age until 24 months
-- (internal/growth). NULL is not recorded.
ALTER TABLE patients ADD COLUMN gestation_weeks INTEGER;
