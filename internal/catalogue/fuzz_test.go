package catalogue

import "testing"

// FuzzImportFiles reads any bytes as a codes, medicines and lab-test file (the seed corpus
// runs in every go test): no panic, every row either taken or reported with a line.
func FuzzImportFiles(f *testing.F) {
	for _, seed := range []string{
		"code,label_en\nA09,Gastroenteritis\n",
		"generic_name;brand;strength\nParacetamol;;500 mg\n\"unterminated\n",
		"generic_name\tform\nX\ttablet\n",
		"\xef\xbb\xbfcode,label_en\n,\n\n",
		"code,label_en,label_ru\nA09,\"a\"\"b\",\x00\n",
		"\xff\xfe",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = streamCodes(data, func(codeRow) error { return nil })
		_, _ = streamMedicines(data, func(MedicineInput) error { return nil })
		_, _ = readTSV(data, -1)
	})
}
