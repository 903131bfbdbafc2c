package immunisation

import (
	"context"
	"database/sql"
	"log/slog"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/settings"
)

// Settings are the clinic's immunisation settings (an administrator's): the schedules it
// follows, in order (for each antigen the first that has it), the vaccines it stocks, the
// parents' reminders, and how old a weight may be for a dose by weight.
type Settings struct {
	Schedules []string  `json:"schedules"`
	Stocked   []string  `json:"stocked"`
	Reminders Reminders `json:"reminders"`
	// WeightMaxAgeDays: a weight older than this is too old to dose by (the prescription
	// check's, issue 59).
	WeightMaxAgeDays int `json:"weight_max_age_days"`
	Version          int `json:"version"`
}

// Reminders are the parents' reminders of a dose due: on or off, how many days before the
// due date, by which channels.
type Reminders struct {
	On         bool     `json:"on"`
	DaysBefore int      `json:"days_before"`
	Channels   []string `json:"channels"`
}

const settingsKey = "immunisation"

// The bounds of the settings.
const (
	defaultWeightMaxAgeDays = 30
	maxWeightAgeDays        = 365
	maxDaysBefore           = 60
	maxStocked              = 200
)

// DefaultSettings are the settings until an administrator saves others: WHO's schedule.
func DefaultSettings() Settings {
	return Settings{Schedules: []string{"who"}, Stocked: []string{}, Reminders: Reminders{On: false, DaysBefore: 7, Channels: []string{"sms", "email"}},
		WeightMaxAgeDays: defaultWeightMaxAgeDays}
}

// ReadSettings returns the clinic's immunisation settings (DefaultSettings until saved).
func ReadSettings(ctx context.Context, q database.Querier) (Settings, error) {
	s := DefaultSettings()
	version, err := settings.Read(ctx, q, settingsKey, &s)
	s.Version = version
	return s, err
}

// WeightMaxAgeDays is how many days old the latest weight may be for a dose by weight.
func WeightMaxAgeDays(ctx context.Context, q database.Querier) (int, error) {
	s, err := ReadSettings(ctx, q)
	if err != nil {
		return defaultWeightMaxAgeDays, err
	}
	return s.WeightMaxAgeDays, nil
}

func cleanKeys(keys []string) []string {
	out := []string{}
	for _, k := range keys {
		if k = strings.TrimSpace(k); k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func (s *Settings) clean(c vaccines) error {
	var v apperr.Validation
	s.Schedules, s.Stocked = cleanKeys(s.Schedules), cleanKeys(s.Stocked)
	if len(s.Schedules) == 0 {
		v.Add("schedules", "validation.required")
	}
	known := map[string]bool{}
	for _, sc := range c.Schedules("en") {
		known[sc.Key] = true
	}
	for _, k := range s.Schedules {
		if !known[k] {
			v.Add("schedules", "immunisation.unknown_schedule")
			break
		}
	}
	for _, k := range s.Stocked {
		if _, ok := c.Vaccine(k, "en"); !ok {
			v.Add("stocked", "immunisation.unknown_vaccine")
			break
		}
	}
	if len(s.Stocked) > maxStocked {
		v.Add("stocked", "validation.too_many")
	}
	if s.Reminders.DaysBefore < 0 || s.Reminders.DaysBefore > maxDaysBefore {
		v.Add("reminders.days_before", "immunisation.bad_days_before")
	}
	s.Reminders.Channels = cleanKeys(s.Reminders.Channels)
	for _, ch := range s.Reminders.Channels {
		if ch != "sms" && ch != "email" {
			v.Add("reminders.channels", "validation.invalid_choice")
			break
		}
	}
	if s.Reminders.On && len(s.Reminders.Channels) == 0 {
		v.Add("reminders.channels", "validation.required")
	}
	if s.WeightMaxAgeDays < 1 || s.WeightMaxAgeDays > maxWeightAgeDays {
		v.Add("weight_max_age_days", "immunisation.bad_weight_age")
	}
	return v.Err()
}

// SaveSettings stores the clinic's immunisation settings if in.Version is still the stored
// one (else a conflict), audited. When the schedules changed, the save asks in its
// transaction for every child's due rows to be rebuilt (RequestRefreshAll), then rebuilds
// them in the background after the commit (rebuildSoon); the hourly pass (DueService.Pass) finishes
// what is left, and a server stopped half-way goes on where it stopped.
func (s *Store) SaveSettings(ctx context.Context, e audit.Event, in Settings) (Settings, error) {
	if err := in.clean(s.catalogue()); err != nil {
		return Settings{}, err
	}
	e.Action = "settings.immunisation"
	changed := false
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := ReadSettings(ctx, tx)
		if err != nil {
			return err
		}
		stored := in
		stored.Version = 0
		version, err := settings.Save(ctx, tx, e, settingsKey, stored, in.Version)
		if err != nil {
			return err
		}
		in.Version = version
		changed = !slices.Equal(old.Schedules, in.Schedules)
		if !changed {
			return nil
		}
		return RequestRefreshAll(ctx, tx, s.now())
	})
	if err != nil || !changed {
		return in, err
	}
	s.rebuildSoon(ctx)
	return in, nil
}

// RebuildLimit is how long a rebuild started by a save of new schedules goes on, in the
// background, before it leaves the rest to the hourly pass (DueService.Pass).
const RebuildLimit = 10 * time.Minute

// rebuildSoon rebuilds the requested due rows in the background, after the save has answered:
// one rebuild at a time (a save meanwhile restarts the request, which the running one reads
// batch by batch). Saved, the rebuild stays requested whatever happens to this one: the
// hourly pass, on any instance, goes on with it.
func (s *Store) rebuildSoon(ctx context.Context) {
	if !s.rebuilding.CompareAndSwap(false, true) {
		return
	}
	s.rebuilds.Add(1)
	go func() {
		defer s.rebuilds.Done()
		defer s.rebuilding.Store(false)
		bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), RebuildLimit)
		defer cancel()
		if _, err := RefreshAll(bg, s.DB); err != nil && bg.Err() == nil {
			slog.Warn("rebuild the immunisation due list", "err", err)
		}
	}()
}

// WaitRebuild waits for a rebuild started by a save to end (a test's database is closed after it).
func (s *Store) WaitRebuild() { s.rebuilds.Wait() }
