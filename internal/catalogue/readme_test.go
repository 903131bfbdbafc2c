package catalogue

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// The README's counts of what the product ships are read from the lists they count: a list
// that grows or shrinks fails here until the README says so.
func TestTheReadmeCountsWhatShips(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	codes, bad, err := parseCodes(icd10Starter)
	if err != nil || len(bad) > 0 {
		t.Fatalf("starter codes: %v %v", err, bad)
	}
	tests, err := readTSV(labTestsStarter, 6)
	if err != nil {
		t.Fatal(err)
	}
	medicines, bad, err := parseMedicines(medicinesStarter)
	if err != nil || len(bad) > 0 {
		t.Fatalf("starter medicines: %v %v", err, bad)
	}
	aliases, err := readTSV(aliasesTSV, 2)
	if err != nil {
		t.Fatal(err)
	}
	names := 0
	for _, r := range aliases {
		names += len(split(r[1]))
	}
	for _, c := range []struct {
		phrase string // the README's sentence, its number as (\d+)
		count  int
		about  bool // "about N": the count rounded down to tens
	}{
		{`A starter list of (\d+) common ICD-10 codes`, len(codes), false},
		{`and (\d+) laboratory and imaging tests`, len(tests), false},
		{`A starter catalogue of (\d+) common generic medicines`, len(medicines), false},
		{`\*\*Drug–drug interactions\*\*: (\d+) cited rules`, len(KnownDrugs.Interactions), false},
		{`about (\d+) substances`, len(KnownDrugs.Substances), true},
		{`(\d+) brand and combination names`, names, false},
	} {
		m := regexp.MustCompile(c.phrase).FindSubmatch(readme)
		if m == nil {
			t.Errorf("the README no longer says %q: change this test with it", c.phrase)
			continue
		}
		said, _ := strconv.Atoi(string(m[1]))
		want := c.count
		if c.about {
			want = c.count / 10 * 10
		}
		if said != want {
			t.Errorf("the README says %q with %d; the list ships %d (write %d)", c.phrase, said, c.count, want)
		}
	}
}
