package patient

import "testing"

func TestNameKeyIgnoresCaseAndAccents(t *testing.T) {
	if NameKey("Văn", "", "Nguyễn") != NameKey("van", "", "NGUYEN") {
		t.Fatal("name keys differ")
	}
}
