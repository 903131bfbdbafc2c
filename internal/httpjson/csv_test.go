package httpjson_test

import (
	"bytes"
	"testing"

	"emr/internal/httpjson"
)

// Every cell a formula could start in is guarded; numbers, negative ones too, stay numbers.
func TestCSVGuardsEveryCell(t *testing.T) {
	var b bytes.Buffer
	w := httpjson.NewCSV(&b)
	w.Write("=1+2", "+CMD", "-2+3", "@SUM(A1)", "\tx", "-12.50", "+7", "42", "Nguyễn Văn An", "")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "'=1+2,'+CMD,'-2+3,'@SUM(A1),'\tx,-12.50,+7,42,Nguyễn Văn An,\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
