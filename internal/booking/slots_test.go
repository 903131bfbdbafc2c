package booking

import (
	"errors"
	"testing"
	"time"

	"emr/internal/apperr"
)

// week is a Monday-to-Friday week, 08:00–12:00 with a break 10:00–10:30.
func week() [7]Day {
	var w [7]Day
	for i := 0; i < 5; i++ {
		w[i] = Day{Open: "08:00", Close: "12:00", Breaks: []Span{{From: "10:00", To: "10:30"}}}
	}
	return w
}

func times(list []Slot, loc *time.Location) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.StartsAt.In(loc).Format("01-02 15:04"))
	}
	return out
}

func TestFreeSlots(t *testing.T) {
	hcm, _ := time.LoadLocation("Asia/Ho_Chi_Minh")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := func(loc *time.Location, s string) time.Time {
		t, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			panic(err)
		}
		return t
	}
	doc := func(id int64, minutes int) Doctor {
		return Doctor{DoctorID: id, Enabled: true, Offers: []Offer{{Type: "new", SlotMinutes: minutes}}, Week: week()}
	}
	base := func(doctors ...Doctor) Settings {
		return Settings{Enabled: true, AheadDays: 30, Doctors: doctors}
	}
	night := func(s Settings) Settings { s.Doctors[0].Week[6] = Day{Open: "01:00", Close: "04:00"}; return s } // Sundays
	for _, c := range []struct {
		name  string
		set   Settings
		q     Query
		loc   *time.Location
		now   string
		busy  []Interval
		want  []string
		count int // when want is nil: how many
	}{
		{name: "a day's slots skip the break", set: base(doc(1, 60)), q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 1},
			loc: hcm, now: "2026-12-01 09:00", want: []string{"12-07 08:00", "12-07 09:00", "12-07 10:30"}},
		{name: "slots restart after the break", set: base(doc(1, 30)), q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 1},
			loc: hcm, now: "2026-12-01 09:00", count: 7},
		{name: "weekend closed", set: base(doc(1, 60)), q: Query{DoctorID: 1, Type: "new", From: "2026-12-05", Days: 2},
			loc: hcm, now: "2026-12-01 09:00", want: []string{}},
		{name: "type not offered", set: base(doc(1, 60)), q: Query{DoctorID: 1, Type: "follow-up", From: "2026-12-07", Days: 1},
			loc: hcm, now: "2026-12-01 09:00", want: []string{}},
		{name: "clinic holiday", set: func() Settings {
			s := base(doc(1, 60))
			s.Holidays = []DaysOff{{From: "2026-12-07", To: "2026-12-07"}}
			return s
		}(),
			q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 2}, loc: hcm, now: "2026-12-01 09:00",
			want: []string{"12-08 08:00", "12-08 09:00", "12-08 10:30"}},
		{name: "doctor's days off", set: func() Settings {
			s := base(doc(1, 60))
			s.Doctors[0].DaysOff = []DaysOff{{From: "2026-12-06", To: "2026-12-08"}}
			return s
		}(), q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 3}, loc: hcm, now: "2026-12-01 09:00",
			want: []string{"12-09 08:00", "12-09 09:00", "12-09 10:30"}},
		{name: "how far ahead", set: func() Settings { s := base(doc(1, 60)); s.AheadDays = 6; return s }(),
			q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 2}, loc: hcm, now: "2026-12-01 09:00",
			want: []string{"12-07 08:00", "12-07 09:00", "12-07 10:30"}},
		{name: "past and minimum notice", set: func() Settings { s := base(doc(1, 60)); s.NoticeMinutes = 60; return s }(),
			q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 1}, loc: hcm, now: "2026-12-07 08:10",
			want: []string{"12-07 10:30"}},
		{name: "days before today", set: base(doc(1, 60)), q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 2},
			loc: hcm, now: "2026-12-08 07:00", want: []string{"12-08 08:00", "12-08 09:00", "12-08 10:30"}},
		{name: "a desk booking in the middle", set: base(doc(1, 30)), q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 1},
			loc: hcm, now: "2026-12-01 09:00", busy: []Interval{{DoctorID: 1, Start: at(hcm, "2026-12-07 08:45"), End: at(hcm, "2026-12-07 09:15")}},
			want: []string{"12-07 08:00", "12-07 09:30", "12-07 10:30", "12-07 11:00", "12-07 11:30"}},
		{name: "another doctor's booking takes nothing", set: base(doc(1, 60)), q: Query{DoctorID: 1, Type: "new", From: "2026-12-07", Days: 1},
			loc: hcm, now: "2026-12-01 09:00", busy: []Interval{{DoctorID: 2, Start: at(hcm, "2026-12-07 08:00"), End: at(hcm, "2026-12-07 12:00")}},
			want: []string{"12-07 08:00", "12-07 09:00", "12-07 10:30"}},
		{name: "any doctor: both, by time", set: base(doc(1, 60), doc(2, 90)), q: Query{Type: "new", From: "2026-12-07", Days: 1},
			loc: hcm, now: "2026-12-01 09:00", busy: []Interval{{DoctorID: 1, Start: at(hcm, "2026-12-07 09:00"), End: at(hcm, "2026-12-07 10:00")}},
			want: []string{"12-07 08:00", "12-07 08:00", "12-07 10:30", "12-07 10:30"}},
		{name: "a disabled doctor offers nothing", set: func() Settings { s := base(doc(1, 60)); s.Doctors[0].Enabled = false; return s }(),
			q: Query{Type: "new", From: "2026-12-07", Days: 1}, loc: hcm, now: "2026-12-01 09:00", want: []string{}},
		{name: "DST spring forward: 02:00-03:00 does not exist", set: night(base(doc(1, 60))),
			q: Query{DoctorID: 1, Type: "new", From: "2026-03-29", Days: 1}, loc: berlin, now: "2026-03-20 09:00",
			want: []string{"03-29 01:00", "03-29 03:00"}},
		{name: "DST fall back: a slot lasts its real minutes", set: night(base(doc(1, 60))),
			q: Query{DoctorID: 1, Type: "new", From: "2026-10-25", Days: 1}, loc: berlin, now: "2026-10-20 09:00",
			want: []string{"10-25 01:00", "10-25 02:00", "10-25 03:00"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := times(FreeSlots(c.set, c.q, c.loc, at(c.loc, c.now).UTC(), c.busy), c.loc)
			if c.want == nil {
				if len(got) != c.count {
					t.Fatalf("got %d slots %v, want %d", len(got), got, c.count)
				}
				return
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestSettingsValidation(t *testing.T) {
	doctors := map[int64]bool{1: true, 2: true}
	good := func() Settings {
		return Settings{Enabled: true, AheadDays: 30, NoticeMinutes: 60, Doctors: []Doctor{{DoctorID: 1, Enabled: true, Offers: []Offer{{Type: "new", SlotMinutes: 20}}, Week: week()}}}
	}
	for _, c := range []struct {
		name   string
		change func(*Settings)
		field  string
	}{
		{"good", func(*Settings) {}, ""},
		{"slot too short", func(s *Settings) { s.Doctors[0].Offers[0].SlotMinutes = 4 }, "doctors.0.offers.0.slot_minutes"},
		{"slot too long", func(s *Settings) { s.Doctors[0].Offers[0].SlotMinutes = 241 }, "doctors.0.offers.0.slot_minutes"},
		{"unknown type", func(s *Settings) { s.Doctors[0].Offers[0].Type = "walk-in" }, "doctors.0.offers.0.type"},
		{"type twice", func(s *Settings) { s.Doctors[0].Offers = append(s.Doctors[0].Offers, Offer{"new", 30}) }, "doctors.0.offers.1.type"},
		{"not a doctor", func(s *Settings) { s.Doctors[0].DoctorID = 9 }, "doctors.0.doctor_id"},
		{"doctor twice", func(s *Settings) { s.Doctors = append(s.Doctors, s.Doctors[0]) }, "doctors.1.doctor_id"},
		{"closes before opening", func(s *Settings) { s.Doctors[0].Week[0] = Day{Open: "12:00", Close: "08:00"} }, "doctors.0.week.0"},
		{"bad time", func(s *Settings) { s.Doctors[0].Week[1].Open = "8am" }, "doctors.0.week.1"},
		{"break outside hours", func(s *Settings) { s.Doctors[0].Week[2].Breaks = []Span{{"12:30", "13:00"}} }, "doctors.0.week.2"},
		{"break at opening", func(s *Settings) { s.Doctors[0].Week[2].Breaks = []Span{{"08:00", "08:30"}} }, "doctors.0.week.2"},
		{"breaks overlap", func(s *Settings) { s.Doctors[0].Week[3].Breaks = []Span{{"09:00", "10:00"}, {"09:30", "10:30"}} }, "doctors.0.week.3"},
		{"break on a closed day", func(s *Settings) { s.Doctors[0].Week[6].Breaks = []Span{{"09:00", "10:00"}} }, "doctors.0.week.6"},
		{"enabled without offers", func(s *Settings) { s.Doctors[0].Offers = nil }, "doctors.0.offers"},
		{"ahead zero", func(s *Settings) { s.AheadDays = 0 }, "ahead_days"},
		{"notice negative", func(s *Settings) { s.NoticeMinutes = -1 }, "notice_minutes"},
		{"holiday backwards", func(s *Settings) { s.Holidays = []DaysOff{{From: "2026-12-10", To: "2026-12-09"}} }, "holidays"},
		{"holiday bad date", func(s *Settings) { s.Holidays = []DaysOff{{From: "10/12/2026"}} }, "holidays"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := good()
			c.change(&s)
			err := s.clean(doctors)
			if c.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !containsField(err, c.field) {
				t.Fatalf("want an error on %s, got %v", c.field, err)
			}
		})
	}
}

func containsField(err error, field string) bool {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return false
	}
	_, ok := ae.Fields[field]
	return ok
}

// "Any doctor" answers each time once, with the first free doctor of it (the hold names him).
func TestOncePerTime(t *testing.T) {
	at := func(hhmm string) time.Time { v, _ := time.Parse("15:04", hhmm); return v }
	in := []Slot{{DoctorID: 3, StartsAt: at("08:00")}, {DoctorID: 5, StartsAt: at("08:00")}, {DoctorID: 5, StartsAt: at("08:20")},
		{DoctorID: 2, StartsAt: at("08:40")}, {DoctorID: 3, StartsAt: at("08:40")}, {DoctorID: 4, StartsAt: at("08:40")}}
	got := oncePerTime(in)
	want := []Slot{{DoctorID: 3, StartsAt: at("08:00")}, {DoctorID: 5, StartsAt: at("08:20")}, {DoctorID: 2, StartsAt: at("08:40")}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i].DoctorID != want[i].DoctorID || !got[i].StartsAt.Equal(want[i].StartsAt) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
	}
	if len(oncePerTime(nil)) != 0 {
		t.Fatal("none")
	}
}
