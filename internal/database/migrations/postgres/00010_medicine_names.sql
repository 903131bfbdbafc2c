-- +goose Up
-- A medicine's generic name in each interface language (empty: the generic name), so that a
-- prescription names it in the language it is written in: 阿莫西林, Амоксициллин.
ALTER TABLE medicines ADD COLUMN name_ru TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines ADD COLUMN name_zh TEXT NOT NULL DEFAULT '';
ALTER TABLE medicines ADD COLUMN name_vi TEXT NOT NULL DEFAULT '';
