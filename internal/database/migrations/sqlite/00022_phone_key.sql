-- +goose Up
-- A phone number is found however it was written (issue 34): "+84 912 345 678",
-- "0084 912 345 678" and "0912 345 678" share one key, the national digits (textsearch.PhoneKey:
-- the country calling code dropped after an international prefix, the trunk prefix dropped
-- from a domestic number). The search matches the key's leading digits beside the number's
-- own digits, and the possible-duplicate check compares keys.
ALTER TABLE patients ADD COLUMN phone_key TEXT NOT NULL DEFAULT '';
-- The same rule as PhoneKey, written once here for the patients registered before it.
UPDATE patients SET phone_key = ltrim(CASE
    WHEN ltrim(phone) LIKE '+%' THEN CASE WHEN substr(phone_digits, 1, 1) IN ('1', '7') THEN substr(phone_digits, 2)
      WHEN substr(phone_digits, 1, 2) IN ('20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98') THEN substr(phone_digits, 3)
      ELSE substr(phone_digits, 4) END
    WHEN phone_digits LIKE '00%' THEN CASE WHEN substr(substr(phone_digits, 3), 1, 1) IN ('1', '7') THEN substr(substr(phone_digits, 3), 2)
      WHEN substr(substr(phone_digits, 3), 1, 2) IN ('20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98') THEN substr(substr(phone_digits, 3), 3)
      ELSE substr(substr(phone_digits, 3), 4) END
    WHEN length(phone_digits) = 11 AND phone_digits LIKE '8%' THEN substr(phone_digits, 2)
    ELSE phone_digits END, '0');
CREATE INDEX patients_phone_key ON patients (phone_key);

-- +goose Down
DROP INDEX patients_phone_key;
ALTER TABLE patients DROP COLUMN phone_key;
