package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"emr/internal/apperr"
	"emr/internal/database"
)

// Two-factor sign-in (ASVS 2.7/2.8): a TOTP secret per user (RFC 6238: SHA-1, 6 digits,
// 30 s, one step of clock drift either way), each code accepted once, and ten single-use
// recovery codes stored as hashes. github.com/pquerna/otp makes the secret and the codes.
type TwoFactor struct {
	DB  *database.DB
	Now func() time.Time
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
	if _, err := t.DB.ExecContext(ctx, `INSERT INTO user_totp (user_id, secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at, last_step = 0, confirmed_at = NULL`,
		userID, key.Secret(), t.now()); err != nil {
		return Enrolment{}, fmt.Errorf("store the TOTP secret: %w", err)
	}
	return Enrolment{Secret: key.Secret(), URL: key.URL(), QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// Confirm turns the pending secret on once code matches it, and returns the recovery codes,
// shown this once (only their hashes are kept).
func (t *TwoFactor) Confirm(ctx context.Context, userID int64, code string) ([]string, error) {
	var codes []string
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
		codes, err = newRecoveryCodes(ctx, tx, userID)
		return err
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
	res, err := t.DB.ExecContext(ctx, `UPDATE user_recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
		userID, hashRecovery(code), t.now())
	if err != nil {
		return false, fmt.Errorf("use a recovery code: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// useTOTP accepts code if it is the TOTP code of a step within the drift and after the last
// one used, and records that step (atomically: the same code twice, even at once, passes once).
func (t *TwoFactor) useTOTP(ctx context.Context, q database.Querier, userID int64, code string, confirmed bool) (bool, error) {
	var secret string
	var last int64
	query := `SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND confirmed_at IS NULL`
	if confirmed {
		query = `SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL`
	}
	err := q.QueryRowContext(ctx, query, userID).Scan(&secret, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the TOTP secret: %w", err)
	}
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

// Remove turns userID's second factor off (the user with password and code, or an
// administrator's reset) and forgets the recovery codes.
func (t *TwoFactor) Remove(ctx context.Context, q database.Querier, userID int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM user_totp WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("remove the second factor: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("remove recovery codes: %w", err)
	}
	return nil
}

func newRecoveryCodes(ctx context.Context, tx *sql.Tx, userID int64) ([]string, error) {
	if _, err := tx.ExecContext(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
		return nil, err
	}
	codes := make([]string, recoveryCodes)
	for i := range codes {
		b := make([]byte, 5)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		h := hex.EncodeToString(b)
		codes[i] = h[:5] + "-" + h[5:]
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, hashRecovery(codes[i])); err != nil {
			return nil, err
		}
	}
	return codes, nil
}

// hashRecovery hashes a recovery code (40 random bits each, single use, throttled at
// sign-in: a fast hash is enough) as typed, whatever its case and spacing.
func hashRecovery(code string) string {
	code = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(code), " ", ""))
	sum := sha256.Sum256([]byte("emr recovery\x00" + code))
	return hex.EncodeToString(sum[:])
}
