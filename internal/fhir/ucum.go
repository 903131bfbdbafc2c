package fhir

import (
	"strings"

	"emr/internal/result"
)

// ucumCodes are the units a result may carry, as the analyte catalogue writes them, each
// with its UCUM code (https://ucum.org/ucum, case-sensitive): the catalogue's units are UCUM
// codes already (lab_analytes.tsv, lab_units.tsv), and the spellings people type for them
// when they edit an analyte (µmol/L, mIU/L, ×10⁹/L) are mapped to the same codes. A unit not
// in this table is free text: it is written as the quantity's unit alone, never claimed as
// UCUM (a test holds every catalogue unit to this table).
var ucumCodes = map[string]string{
	// The catalogue's canonical units.
	"10*9/L": "10*9/L", "10*12/L": "10*12/L", "g/L": "g/L", "%": "%", "fL": "fL", "pg": "pg", "mm/h": "mm/h", "mg/L": "mg/L",
	"mmol/L": "mmol/L", "umol/L": "umol/L", "mL/min/{1.73_m2}": "mL/min/{1.73_m2}", "U/L": "U/L", "m[IU]/L": "m[IU]/L",
	"pmol/L": "pmol/L", "ng/mL": "ng/mL", "s": "s", "{INR}": "{INR}", "1": "1", "[pH]": "[pH]", "mg/g": "mg/g",
	// The units results may be entered in.
	"10*3/uL": "10*3/uL", "10*6/uL": "10*6/uL", "g/dL": "g/dL", "L/L": "L/L", "mg/dL": "mg/dL", "mmol/mol": "mmol/mol",
	"mg/dL{BUN}": "mg/dL{BUN}", "meq/L": "meq/L", "ng/dL": "ng/dL", "ug/L": "ug/L", "mg/mmol": "mg/mmol",
	// How people write them: the micro sign and the Greek mu, international units, powers of ten.
	"µmol/L": "umol/L", "μmol/L": "umol/L", "µg/L": "ug/L", "μg/L": "ug/L", "mIU/L": "m[IU]/L", "mEq/L": "meq/L",
	"×10⁹/L": "10*9/L", "×10¹²/L": "10*12/L", "×10³/µL": "10*3/uL", "×10⁶/µL": "10*6/uL", "mL/min/1.73 m²": "mL/min/{1.73_m2}",
}

// litre and powers rewrite the two spellings of a unit that analysers and other systems send
// beside the table's: the litre in lower case (UCUM has both "l" and "L" for it, and the
// table keeps "L") and a power of ten written 10^9, 10E9 or x10^9 (UCUM writes 10*9).
var (
	litre  = strings.NewReplacer("/l", "/L", "ml", "mL", "dl", "dL", "ul", "uL", "µl", "µL", "μl", "μL")
	powers = strings.NewReplacer("x10^", "10*", "×10^", "10*", "*10^", "10*", "10^", "10*", "10E", "10*", "10e", "10*")
)

// ucumOf is unit's UCUM code, when the table knows the unit as written or in one of the
// spellings litre and powers undo.
func ucumOf(unit string) (string, bool) {
	unit = strings.TrimSpace(unit)
	if code, ok := ucumCodes[unit]; ok {
		return code, true
	}
	code, ok := ucumCodes[powers.Replace(litre.Replace(strings.ReplaceAll(unit, " ", "")))]
	return code, ok
}

// labQuantity is a result's amount in unit: coded in UCUM, with the unit written as people
// read it, when the table knows the unit; the unit's text alone when it does not.
func labQuantity(value float64, unit string) *Quantity {
	code, ok := ucumOf(unit)
	if !ok {
		return &Quantity{Value: value, Unit: unit}
	}
	return &Quantity{Value: value, Unit: result.UnitIn("en", code), System: systemUCUM, Code: code}
}
