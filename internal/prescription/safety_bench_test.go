package prescription

import (
	"testing"
	"time"

	"emr/internal/catalogue"
	"emr/internal/patient"
)

// BenchmarkCheck is the medicine-safety check's own work, without the database: five typed
// lines against three allergies and 30 prescriptions of three lines (bench/safety.sh
// measures the same through the server).
func BenchmarkCheck(b *testing.B) {
	d := catalogue.KnownDrugs
	r := &reader{drugs: d}
	var in safetyInput
	for _, text := range []string{"Amoxiclav 625 mg", "Neozep Forte", "Ибупрофен 400 мг", "阿奇霉素片 0.25g", "Omeprazole 20 mg"} {
		l, _ := r.line(Item{Medicine: text, Duration: "7 days"})
		in.lines = append(in.lines, l)
	}
	current := []string{"Warfarin 5 mg", "Amlodipine 5 mg", "Metformin 500 mg", "Atorvastatin 20 mg", "Clopidogrel 75 mg", "Levothyroxine 50 mcg"}
	now := time.Now()
	for i := range 30 {
		rx := recentRx{id: int64(i), date: "2026-11-01", at: now.AddDate(0, 0, -i)}
		for j := range 3 {
			l, _ := r.line(Item{Medicine: current[(i+j)%len(current)], Duration: "30 days"})
			rx.lines = append(rx.lines, l)
		}
		in.recent = append(in.recent, rx)
	}
	in.allergies = []patient.Allergy{{Substance: "Penicillin", Reaction: "anaphylaxis", Severity: "severe"}, {Substance: "Aspirin, sulfa", Reaction: "urticaria"}, {Substance: "Nitroxoline", Reaction: "rash"}}
	in.now, in.loc = now, time.UTC
	for b.Loop() {
		check(in, describer{drugs: d, lang: "en"})
	}
}

// BenchmarkProfileLines is reading the lines themselves: 95 of them, as a check of the same
// patient reads.
func BenchmarkProfileLines(b *testing.B) {
	r := &reader{drugs: catalogue.KnownDrugs}
	for b.Loop() {
		for range 19 {
			for _, text := range []string{"Amoxiclav 625 mg", "Neozep Forte", "Ибупрофен 400 мг", "阿奇霉素片 0.25g", "Warfarin 5 mg"} {
				_, _ = r.line(Item{Medicine: text})
			}
		}
	}
}
