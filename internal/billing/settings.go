package billing

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/settings"
)

// Settings are the clinic's fee settings: its currency (ISO 4217) and, per appointment
// type, the service whose fee a new bill of such a visit starts with ("" for none).
// MinorUnits and Currencies (the choices) are given with them, never stored.
type Settings struct {
	Currency     string            `json:"currency"`
	MinorUnits   int               `json:"minor_units"`
	Consultation map[string]string `json:"consultation"`
	// DifferenceLimit is the largest difference, short or over, in minor units, a drawer
	// closes with on its cashier's word; a larger one needs a supervisor's acknowledgement
	// (the cashier's review, M7). 0, the default: every difference does.
	DifferenceLimit Money    `json:"drawer_difference_limit"`
	Currencies      []string `json:"currencies"`
	Version         int      `json:"version"`
}

const settingsKey = "fees"

// defaultCurrency is the currency of a clinic that has not chosen one.
const defaultCurrency = "USD"

// ReadSettings returns the fee settings (the default currency until a manager sets one).
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	var s Settings
	version, err := settings.Read(ctx, q, settingsKey, &s)
	s.Version = version
	if s.Currency == "" {
		s.Currency = defaultCurrency
	}
	if s.Consultation == nil {
		s.Consultation = map[string]string{}
	}
	s.MinorUnits, s.Currencies = MinorUnits(s.Currency), Currencies()
	return s, err
}

// SaveSettings replaces the fee settings if in.Version is still the stored one. The
// currency cannot change once a bill has been written in another.
func (st *Store) SaveSettings(ctx context.Context, e audit.Event, in Settings) (Settings, error) {
	var v apperr.Validation
	in.Currency = strings.ToUpper(strings.TrimSpace(in.Currency))
	if in.Consultation == nil { // none sent: none, answered as an empty map, not null
		in.Consultation = map[string]string{}
	}
	if _, ok := minorUnits[in.Currency]; !ok {
		v.Add("currency", "billing.bad_currency")
	}
	for typ := range in.Consultation {
		if !slices.Contains(appointment.Types, typ) {
			v.Add("consultation", "billing.bad_appointment_type")
		}
	}
	if in.DifferenceLimit < 0 || in.DifferenceLimit > maxMoney {
		v.Add("drawer_difference_limit", "billing.bad_amount")
	}
	if err := v.Err(); err != nil {
		return Settings{}, err
	}
	err := st.DB.Tx(ctx, func(tx *sql.Tx) error {
		for _, typ := range slices.Sorted(maps.Keys(in.Consultation)) {
			code := strings.ToUpper(strings.TrimSpace(in.Consultation[typ]))
			if code == "" {
				delete(in.Consultation, typ)
				continue
			}
			if _, err := serviceByCode(ctx, tx, code); err != nil {
				v.Add("consultation."+typ, "billing.service_not_found")
			}
			in.Consultation[typ] = code
		}
		if err := v.Err(); err != nil {
			return err
		}
		var other bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM bills WHERE currency <> $1)`, in.Currency).Scan(&other); err != nil {
			return err
		}
		if other {
			return apperr.Conflict("billing.currency_in_use")
		}
		e.Action = "settings.fees"
		version, err := settings.Save(ctx, tx, e, settingsKey, Settings{Currency: in.Currency, Consultation: in.Consultation,
			DifferenceLimit: in.DifferenceLimit}, in.Version)
		in.Version = version
		return err
	})
	in.MinorUnits, in.Currencies = MinorUnits(in.Currency), Currencies()
	return in, err
}
