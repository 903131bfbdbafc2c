package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image/png"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/secret"
)

// Two-factor sign-in (ASVS 2.7/2.8): a TOTP secret per user (RFC 6238: SHA-1, 6 digits,
// 30 s, one step of clock drift either way), each code accepted once, and ten single-use
// recovery codes of 80 random bits each. github.com/pquerna/otp makes the secret and the
// codes. The secret is stored sealed and the recovery codes as keyed hashes, under the key
// file's keys (Secrets, ADR 26): a dump of the database yields neither.
type TwoFactor struct {
	DB      *database.DB
	Secrets *secret.Ring
	Now     func() time.Time
}

const (
	totpPeriod    = 30
	recoveryCodes = 10
	// Issuer names the product in an authenticator app.
	Issuer = "EMR"
)

var totpOptions = totp.ValidateOpts{Period: totpPeriod, Skew: 1, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

func (t *TwoFactor) now() time.Time {
	if t.Now != nil {
		return t.Now().UTC()
	}
	return time.Now().UTC()
}

// TwoFactorStatus is what a user (or an administrator) sees of a user's second factor.
type TwoFactorStatus struct {
	Enabled bool `json:"enabled"`
	// Required: one of the user's roles requires it.
	Required      bool `json:"required"`
	RecoveryCodes int  `json:"recovery_codes_left"`
}

// Status reads userID's second factor (Required is the caller's to say: roles are not
// auth's).
func (t *TwoFactor) Status(ctx context.Context, userID int64) (TwoFactorStatus, error) {
	var s TwoFactorStatus
	err := t.DB.QueryRowContext(ctx, `SELECT
		EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL),
		(SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL)`, userID).Scan(&s.Enabled, &s.RecoveryCodes)
	if err != nil {
		return s, fmt.Errorf("read two-factor status: %w", err)
	}
	return s, nil
}

// Enrolment is a new secret waiting for its first code: for the authenticator app.
type Enrolment struct {
	Secret string `json:"secret"`
	URL    string `json:"otpauth_url"`
	// QR is a PNG of URL, as a data: URL.
	QR string `json:"qr"`
}

// Begin makes a new secret for userID (account names it in the app), replacing one not yet
// confirmed; a confirmed second factor must be disabled first.
func (t *TwoFactor) Begin(ctx context.Context, userID int64, account string) (Enrolment, error) {
	if s, err := t.Status(ctx, userID); err != nil || s.Enabled {
		if err == nil {
			err = apperr.Conflict("twofactor.already_enabled")
		}
		return Enrolment{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: Issuer, AccountName: account, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return Enrolment{}, fmt.Errorf("make a TOTP secret: %w", err)
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return Enrolment{}, fmt.Errorf("draw the QR code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Enrolment{}, err
	}
	// Only a secret not yet confirmed is replaced: a confirmation committing since the status
	// was read is kept (turning it off is a remedy of its own, which ends the tokens).
	res, err := t.DB.ExecContext(ctx, `INSERT INTO user_totp (user_id, secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at, last_step = 0, confirmed_at = NULL
		WHERE user_totp.confirmed_at IS NULL`,
		userID, t.Secrets.Seal(totpPurpose(userID), []byte(key.Secret())), t.now())
	if err != nil {
		return Enrolment{}, fmt.Errorf("store the TOTP secret: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return Enrolment{}, apperr.Conflict("twofactor.already_enabled")
	}
	return Enrolment{Secret: key.Secret(), URL: key.URL(), QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// Confirm turns p's pending secret on once code matches it, ends p's user's other sessions
// and API tokens (as a password change does), and returns the recovery codes, shown this once (only their
// keyed hashes are kept). The change is audited as e's, in its transaction.
func (t *TwoFactor) Confirm(ctx context.Context, e audit.Event, p *Principal, code string) ([]string, error) {
	var codes []string
	userID := p.UserID
	err := t.DB.Tx(ctx, func(tx *sql.Tx) error {
		ok, err := t.useTOTP(ctx, tx, userID, code, false)
		if err != nil {
			return err
		}
		if !ok {
			var v apperr.Validation
			v.Add("code", "twofactor.wrong_code")
			return v.Err()
		}
		if _, err := tx.ExecContext(ctx, `UPDATE user_totp SET confirmed_at = $2 WHERE user_id = $1`, userID, t.now()); err != nil {
			return err
		}
		if err := endSessionsBut(ctx, tx, userID, p.tokenHash); err != nil {
			return err
		}
		if codes, err = t.newRecoveryCodes(ctx, tx, userID); err != nil {
			return err
		}
		if err := EndTokens(ctx, tx, e, userID, EndedTwoFactorChanged, false); err != nil {
			return err
		}
		e.Action, e.EntityType, e.EntityID, e.Outcome = "profile.two_factor_on", "user", strconv.FormatInt(userID, 10), audit.Success
		return audit.Record(ctx, tx, e)
	})
	return codes, err
}

// Verify checks a code at sign-in: a TOTP code of a step not used before, or an unused
// recovery code (used up by this). It reports false for a wrong or spent code.
func (t *TwoFactor) Verify(ctx context.Context, userID int64, code string) (bool, error) {
	code = strings.TrimSpace(code)
	if len(code) == 6 {
		return t.useTOTP(ctx, t.DB, userID, code, true)
	}
	return t.useRecovery(ctx, userID, code)
}

// useRecovery uses up an unused recovery code of userID that code is (keyed by whichever key
// of the file keyed it; codes of the first, shorter form were keyed when sealing began).
func (t *TwoFactor) useRecovery(ctx context.Context, userID int64, code string) (bool, error) {
	want := append(t.Secrets.MACs(recoveryPurpose, []byte(normalRecovery(code))), t.Secrets.MACs(recoveryPurpose, []byte(legacyRecoveryHash(code)))...)
	rows, err := t.DB.QueryContext(ctx, `SELECT id, code_hash FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL`, userID)
	if err != nil {
		return false, fmt.Errorf("read recovery codes: %w", err)
	}
	var match int64
	for rows.Next() {
		var id int64
		var stored string
		if err := rows.Scan(&id, &stored); err != nil {
			rows.Close()
			return false, err
		}
		for _, w := range want {
			if subtle.ConstantTimeCompare([]byte(w), []byte(stored)) == 1 {
				match = id
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || match == 0 {
		return false, err
	}
	res, err := t.DB.ExecContext(ctx, `UPDATE user_recovery_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL`, match, t.now())
	if err != nil {
		return false, fmt.Errorf("use a recovery code: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// useTOTP accepts code if it is the TOTP code of a step within the drift and after the last
// one used, and records that step (atomically: the same code twice, even at once, passes once).
func (t *TwoFactor) useTOTP(ctx context.Context, q database.Querier, userID int64, code string, confirmed bool) (bool, error) {
	var sealed string
	var last int64
	query := `SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND confirmed_at IS NULL`
	if confirmed {
		query = `SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL`
	}
	err := q.QueryRowContext(ctx, query, userID).Scan(&sealed, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the TOTP secret: %w", err)
	}
	plain, err := t.Secrets.Open(totpPurpose(userID), sealed)
	if err != nil {
		return false, fmt.Errorf("open the TOTP secret: %w", err)
	}
	secret := string(plain)
	now := t.now().Unix() / totpPeriod
	for step := now - 1; step <= now+1; step++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), totpOptions)
		if err != nil {
			return false, fmt.Errorf("compute a TOTP code: %w", err)
		}
		if step <= last || subtle.ConstantTimeCompare([]byte(want), []byte(code)) != 1 {
			continue
		}
		res, err := q.ExecContext(ctx, `UPDATE user_totp SET last_step = $2 WHERE user_id = $1 AND last_step < $2`, userID, step)
		if err != nil {
			return false, fmt.Errorf("record the TOTP step: %w", err)
		}
		n, err := res.RowsAffected()
		return n == 1, err
	}
	return false, nil
}

// Remove turns userID's second factor off (the user with password and code: keep is their
// session; or an administrator's reset: keep is nil), forgets the recovery codes, and ends
// the account's sessions but keep.
func (t *TwoFactor) Remove(ctx context.Context, q database.Querier, userID int64, keep *Principal) error {
	hash := ""
	if keep != nil && keep.UserID == userID {
		hash = keep.tokenHash
	}
	if err := endSessionsBut(ctx, q, userID, hash); err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM user_totp WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("remove the second factor: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("remove recovery codes: %w", err)
	}
	return nil
}

func (t *TwoFactor) newRecoveryCodes(ctx context.Context, tx *sql.Tx, userID int64) ([]string, error) {
	if _, err := tx.ExecContext(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
		return nil, err
	}
	codes := make([]string, recoveryCodes)
	for i := range codes {
		codes[i] = newRecoveryCode()
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, $2)`,
			userID, t.Secrets.MAC(recoveryPurpose, []byte(normalRecovery(codes[i])))); err != nil {
			return nil, err
		}
	}
	return codes, nil
}

// recoveryAlphabet is base32 without the letters read as digits (i, l, o, u), lower case.
var recoveryAlphabet = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// newRecoveryCode is 80 random bits as 16 characters in four groups: "7k2m-9xq4-hd3a-w8pe".
func newRecoveryCode() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	s := recoveryAlphabet.EncodeToString(b)
	return s[:4] + "-" + s[4:8] + "-" + s[8:12] + "-" + s[12:]
}

// recoveryPurpose binds recovery codes' keyed hashes to what they are.
const recoveryPurpose = "recovery"

func totpPurpose(userID int64) string { return "totp:" + strconv.FormatInt(userID, 10) }

// normalRecovery is a code as typed, whatever its case, spaces and dashes (o, i, l read as
// 0, 1, 1).
func normalRecovery(code string) string {
	return strings.NewReplacer(" ", "", "-", "", "o", "0", "i", "1", "l", "1").Replace(strings.ToLower(strings.TrimSpace(code)))
}

// legacyRecoveryHash is how codes of the first form (40 bits, "a1b2c-3d4e5") were hashed,
// before the hashes were keyed.
func legacyRecoveryHash(code string) string {
	code = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(code), " ", ""))
	sum := sha256.Sum256([]byte("emr recovery\x00" + code))
	return hex.EncodeToString(sum[:])
}

// Reseal brings the stored second factors under the key file's current key (at start, and
// after `emr keys rotate`): TOTP secrets stored plain before sealing are sealed, ones sealed
// by an earlier key re-sealed; recovery-code hashes not yet keyed are keyed. It reports how
// many values it changed.
func Reseal(ctx context.Context, db *database.DB, ring *secret.Ring) (int, error) {
	changed := 0
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		type row struct {
			user  int64
			value string
		}
		var totps, hashes []row
		collect := func(query string, into *[]row) error {
			rows, err := tx.QueryContext(ctx, query)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var r row
				if err := rows.Scan(&r.user, &r.value); err != nil {
					return err
				}
				*into = append(*into, r)
			}
			return rows.Err()
		}
		if err := collect(`SELECT user_id, secret FROM user_totp ORDER BY user_id`, &totps); err != nil {
			return fmt.Errorf("read TOTP secrets: %w", err)
		}
		if err := collect(`SELECT id, code_hash FROM user_recovery_codes WHERE code_hash NOT LIKE '%:%' ORDER BY id`, &hashes); err != nil {
			return fmt.Errorf("read recovery codes: %w", err)
		}
		for _, r := range totps {
			sealed, ok, err := ring.Reseal(totpPurpose(r.user), r.value)
			if err != nil {
				return fmt.Errorf("the TOTP secret of user %d: %w", r.user, err)
			}
			if !ok {
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE user_totp SET secret = $2 WHERE user_id = $1`, r.user, sealed); err != nil {
				return err
			}
			changed++
		}
		for _, r := range hashes {
			if _, err := tx.ExecContext(ctx, `UPDATE user_recovery_codes SET code_hash = $2 WHERE id = $1`, r.user, ring.MAC(recoveryPurpose, []byte(r.value))); err != nil {
				return err
			}
			changed++
		}
		return nil
	})
	return changed, err
}

// TwoFactorEnrolled tells which of accounts ids have confirmed a second factor (for the
// administrators' list of accounts): one read for a page of them.
func TwoFactorEnrolled(ctx context.Context, q database.Querier, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	in, args := database.InIDs(q, "user_id", ids, 1)
	enrolled, err := database.Column[int64](q.QueryContext(ctx, `SELECT user_id FROM user_totp WHERE confirmed_at IS NOT NULL AND `+in, args...))
	if err != nil {
		return nil, fmt.Errorf("read two-factor status: %w", err)
	}
	for _, id := range enrolled {
		out[id] = true
	}
	return out, nil
}
