package profile

import (
	"context"
	"emr/internal/database"
)

// Signer is a doctor as a paper prints them: a prescription, a document, a statement of fees.
// The paper copies it, with the drawn signature, when it is fixed (issued, printed or
// finalised), and prints that copy ever after: a later change to the profile or the
// signature changes no paper already given out. That is the one signature policy.
type Signer struct {
	ID              int64     `json:"id"`
	Name            string    `json:"name"`
	Specialisations []string  `json:"specialisations"`
	Licences        []Licence `json:"licences"`
}

// Drawing is a drawn signature as a paper keeps it; empty when the doctor has none.
type Drawing struct {
	ContentType string
	Data        []byte
}

// SignerOf reads the doctor id as a paper being fixed now copies them: their details and,
// when they have drawn one, their signature.
func SignerOf(ctx context.Context, q database.Querier, id int64) (Signer, Drawing, error) {
	p, err := Get(ctx, q, id)
	if err != nil {
		return Signer{}, Drawing{}, err
	}
	s := Signer{ID: p.ID, Name: p.Name, Specialisations: p.Specialisations, Licences: p.Licences}
	var d Drawing
	if p.HasSignature {
		if d.ContentType, d.Data, err = Image(ctx, q, id, KindSignature); err != nil {
			return s, d, err
		}
	}
	return s, d, nil
}
