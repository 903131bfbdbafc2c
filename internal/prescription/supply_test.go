package prescription

import (
	"testing"
	"time"

	"emr/internal/catalogue"
)

// TestSupplyDays: a line's duration as prescribers write it in the four languages, read as
// the days it supplies (0: cannot be told, so a recent prescription counts for 30 days).
func TestSupplyDays(t *testing.T) {
	for duration, want := range map[string]int{
		"7 days": 7, "7 day": 7, "10d": 10, "2 weeks": 14, "3 wk": 21, "1 month": 30, "3 months": 90,
		"10 дней": 10, "5 дня": 5, "1 день": 1, "7 суток": 7, "2 недели": 14, "1 мес": 30, "3 месяца": 90,
		"14天": 14, "7日": 7, "2周": 14, "1个月": 30, "3月": 90,
		"7 ngày": 7, "2 tuần": 14, "1 tháng": 30,
		"1 year": 365, "1 год": 365, "2 года": 730, "1年": 365, "1 năm": 365,
		"": 0, "until review": 0, "lifelong": 0, "as needed": 0,
	} {
		if got := supplyDays(duration); got != want {
			t.Errorf("%q: %d days, want %d", duration, got, want)
		}
	}
}

// TestStillTaken: whether a line prescribed some days ago is still being taken, as a
// referral's current medicines and the duplicate-therapy check both count it (ADR 25, and the
// pharmacist's review of 2026-11-25: a finished course is no duplicate, an unknown one counts
// for 30 days).
func TestStillTaken(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		duration  string
		daysAgo   int
		taken     bool
		knownEnds bool
	}{
		{"30 days", 10, true, true},     // a month's course, ten days in
		{"7 days", 10, false, true},     // a week's course, finished
		{"7 days", 6, true, true},       // its last day
		{"2 недели", 13, true, true},    // Russian weeks
		{"1 tháng", 31, false, true},    // a Vietnamese month, over
		{"", 20, true, false},           // no duration: 30 days
		{"as needed", 30, false, false}, // and no longer
	} {
		end, known := supplyEnd(now.AddDate(0, 0, -c.daysAgo), supplyDays(c.duration))
		if taken := now.Before(end); taken != c.taken || known != c.knownEnds {
			t.Errorf("%q, %d days ago: taken %v (known %v), want %v (%v)", c.duration, c.daysAgo, taken, known, c.taken, c.knownEnds)
		}
	}
}

// rxAt is an earlier prescription of one line, issued at.
func rxAt(t *testing.T, id int64, at time.Time, it Item) recentRx {
	t.Helper()
	l, err := (&reader{drugs: catalogue.KnownDrugs}).line(it)
	if err != nil {
		t.Fatal(err)
	}
	return recentRx{id: id, date: at.Format(time.DateOnly), at: at, lines: []lineDrugs{l}}
}

// recentOf checks line written at now against earlier prescriptions, in loc.
func recentOf(t *testing.T, now time.Time, loc *time.Location, line Item, earlier ...recentRx) []Finding {
	t.Helper()
	l, _ := (&reader{drugs: catalogue.KnownDrugs}).line(line)
	in := safetyInput{lines: []lineDrugs{l}, recent: earlier, now: now, loc: loc}
	return recentFindings(in, 0, l, nil, describer{drugs: catalogue.KnownDrugs, lang: "en"})
}

// TestRefillCalendarDays: a supply is counted in the clinic's calendar days, the issue day
// the first, so that the answer does not depend on the hour (the pharmacist's review of the
// refill window, 2026-11-29, cases 18–20 and minor 1).
func TestRefillCalendarDays(t *testing.T) {
	loc := time.FixedZone("clinic", 7*3600)
	day := func(d, hour, minute int) time.Time { return time.Date(2026, 11, d, hour, minute, 0, 0, loc) }
	tier := func(f []Finding) string {
		if len(f) == 0 {
			return "none"
		}
		return string(f[0].Tier)
	}
	ibuprofen := Item{Medicine: "Ibuprofen 400 mg", Frequency: "tds", Duration: "5 days"}
	azithromycin := Item{Medicine: "Azithromycin 500 mg", Duration: "3 days"}
	ciprofloxacin := Item{Medicine: "Ciprofloxacin 500 mg", Duration: "1 day"}
	for _, c := range []struct {
		name     string
		given    time.Time
		line     Item
		now      time.Time
		want     string
		supplied string
	}{
		{"#18 ibuprofen issued 16:30, its day 5 at 09:00", day(1, 16, 30), ibuprofen, day(5, 9, 0), "low", "2026-11-05"},
		{"#18 ibuprofen, its day 5 at 23:00", day(1, 16, 30), ibuprofen, day(5, 23, 0), "low", "2026-11-05"},
		{"#19 azithromycin issued 08:00, day 3 at 09:00", day(1, 8, 0), azithromycin, day(3, 9, 0), "high", "2026-11-03"},
		{"#19 azithromycin issued 08:00, day 3 at 15:00", day(1, 8, 0), azithromycin, day(3, 15, 0), "high", "2026-11-03"},
		{"#20 ciprofloxacin issued 16:00, next day 09:00", day(1, 16, 0), ciprofloxacin, day(2, 9, 0), "none", ""},
		{"ciprofloxacin issued 23:30 clinic time, same day", day(1, 23, 30), ciprofloxacin, day(1, 23, 50), "high", "2026-11-01"},
		{"5-day course from 28 Nov ends 2 Dec", time.Date(2026, 11, 28, 10, 0, 0, 0, loc), ibuprofen, time.Date(2026, 11, 28, 11, 0, 0, 0, loc), "high", "2026-12-02"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// stored in UTC, as the database answers
			got := recentOf(t, c.now.UTC(), loc, c.line, rxAt(t, 7, c.given.UTC(), c.line))
			if tier(got) != c.want {
				t.Fatalf("got %v, want %s", got, c.want)
			}
			if len(got) > 0 && got[0].SupplyUntil != c.supplied {
				t.Errorf("supplied until %s, want %s (its last day)", got[0].SupplyUntil, c.supplied)
			}
		})
	}
}

// TestControlledStock: a controlled medicine's supplies of the last 180 days add up, and the
// stock is said once, on the newest prescription (review case 8: 30-day diazepam 46 and 23
// days ago, about 14 days on hand).
func TestControlledStock(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	diazepam := Item{Medicine: "Diazepam 5 mg", Duration: "30 days"}
	got := recentOf(t, now, time.UTC, diazepam, rxAt(t, 2, now.AddDate(0, 0, -23), diazepam), rxAt(t, 1, now.AddDate(0, 0, -46), diazepam))
	if len(got) != 1 || got[0].Tier != catalogue.TierHigh || got[0].OnHand != 14 || *got[0].OtherPrescription != 2 || got[0].SupplyUntil != "2026-12-12" {
		t.Fatalf("got %+v", got)
	}
	// Renewed on its last two days of one supply: inside the three days.
	got = recentOf(t, now, time.UTC, diazepam, rxAt(t, 3, now.AddDate(0, 0, -28), diazepam))
	if len(got) != 0 {
		t.Errorf("renewed on time: %+v", got)
	}
	// A course's renewal inside the window is said, and says so.
	amoxicillin := Item{Medicine: "Amoxicillin 500 mg", Duration: "5 days"}
	got = recentOf(t, now, time.UTC, amoxicillin, rxAt(t, 4, now.AddDate(0, 0, -4), amoxicillin))
	if len(got) != 1 || got[0].Tier != catalogue.TierLow || !got[0].Renews || got[0].SupplyUntil != "2026-11-29" {
		t.Errorf("extension: %+v", got)
	}
}

// TestItemSupply: a line without a readable duration lasts its quantity at its dose and
// frequency; an as-needed line at its most a day, and at least its duration (review M4).
func TestItemSupply(t *testing.T) {
	qty := func(s string) *Amount { a := Amount(s); return &a }
	for _, c := range []struct {
		it   Item
		want int
	}{
		{Item{Quantity: qty("90"), Frequency: "1 daily"}, 90},
		{Item{Quantity: qty("60"), Dose: "1 tablet", Frequency: "twice daily"}, 30},
		{Item{Quantity: qty("30"), Dose: "1", Frequency: "bd", Refills: 2}, 45},
		{Item{Quantity: qty("56"), Dose: "2 tabs", Frequency: "qds"}, 7},
		{Item{Quantity: qty("20"), Dose: "1-2 tablets", Frequency: "every 6 hours as needed"}, 2},
		{Item{Quantity: qty("100"), Dose: "1-2 tablets", Frequency: "q6h prn", Duration: "5 days"}, 12},
		{Item{Quantity: qty("60"), Dose: "1 таб", Frequency: "2 раза в день"}, 30},
		{Item{Quantity: qty("42"), Dose: "1片", Frequency: "每日三次"}, 14},
		{Item{Quantity: qty("30"), Dose: "1 viên", Frequency: "ngày 2 lần"}, 15},
		{Item{Quantity: qty("30"), Dose: "1 tablet", Frequency: "every 8 hours"}, 10},
		{Item{Quantity: qty("30"), Dose: "1/2 tablet", Frequency: "once daily"}, 60},
		{Item{Quantity: qty("30"), Dose: "½ viên", Frequency: "at bedtime"}, 60},
		{Item{Quantity: qty("60"), Dose: "1-2 tablets", Frequency: "twice daily"}, 30}, // the least of a range: the longer supply
		{Item{Quantity: qty("30"), Dose: "500 mg", Frequency: "tds"}, 0},               // a weight: tablets unknown
		{Item{Quantity: qty("30")}, 0},                                                 // no frequency
		{Item{Quantity: qty("30"), Duration: "7 days", Dose: "1", Frequency: "daily"}, 7},
		{Item{Duration: "6 months"}, 180},
		{Item{Duration: "long-term"}, 0}, // not told: 30 days stand in
		{Item{Duration: "3 years"}, 365}, // a year at most
		{Item{Duration: "1 month", Refills: 20}, 365},
	} {
		if got := itemSupply(c.it); got != c.want {
			t.Errorf("%+v: %d days, want %d", c.it, got, c.want)
		}
	}
}

// TestLocalUse: a line for the skin, the eye or the ear, told by its route, its catalogue
// form or its words in the four languages, is no refill of tablets of the same substance.
func TestLocalUse(t *testing.T) {
	for _, c := range []struct {
		it    Item
		form  string
		local bool
	}{
		{Item{Medicine: "Diclofenac 1%", Route: "topical"}, "", true},
		{Item{Medicine: "Diclofenac gel 1%"}, "", true},
		{Item{Medicine: "Диклофенак гель 5%"}, "", true},
		{Item{Medicine: "Вольтарен эмульгель"}, "", true}, // an emulsion gel
		{Item{Medicine: "双氯芬酸钠凝胶"}, "", true},
		{Item{Medicine: "Diclofenac"}, "cream", true},
		{Item{Medicine: "Tobramycin 0.3%", Route: "ophthalmic"}, "", true},
		{Item{Medicine: "Fentanyl 25 mcg/h", Route: "transdermal"}, "", false},
		{Item{Medicine: "Diclofenac 50 mg", Route: "oral"}, "tablet", false},
	} {
		if got := localUse(c.it, c.form); got != c.local {
			t.Errorf("%+v (%s): local %v, want %v", c.it, c.form, got, c.local)
		}
	}
}
