package fhir

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"emr/internal/auth"
	"emr/internal/patient"
)

// ---- Possible duplicates: named in the refusal, confirmed by the distinct-from extension ----
//
// A registration that may be a patient the register has (the same name, birth date and sex,
// or the same phone) is refused (409) as at the desk; the refusal names those patients, one
// possible-duplicate extension (valueReference Patient/{id}) each on its issue. The client
// that has checked them sends the Patient again with one distinct-from extension each: "a
// different person from this one", the desk's confirmation (patient.Store.CreateExactly),
// audited as the desk's. It is not kept on the patient. ADR 35.

// The extensions' names under the clinic's own StructureDefinition base: its public address
// when one is set, else (and always understood) the server's own URN, as the patient
// number's system is.
const (
	distinctFromName      = "distinct-from"
	possibleDuplicateName = "possible-duplicate"
	ownDefinitionURN      = "urn:emr:fhir:StructureDefinition:"
	ownDefinitionPath     = "/fhir/StructureDefinition/"
)

// ownDefinition is the URL of the clinic's extension name in use.
func (h *Handler) ownDefinition(ctx context.Context, name string) string {
	if public := strings.TrimRight(h.publicURL(ctx), "/"); public != "" {
		return public + ownDefinitionPath + name
	}
	return ownDefinitionURN + name
}

// isOwnDefinition reports whether url names the clinic's extension name: under its public
// address or its URN.
func (h *Handler) isOwnDefinition(ctx context.Context, url, name string) bool {
	if url == ownDefinitionURN+name {
		return true
	}
	public := strings.TrimRight(h.publicURL(ctx), "/")
	return public != "" && url == public+ownDefinitionPath+name
}

// extensionIn is a written extension as the distinct-from one is read.
type extensionIn struct {
	URL            string     `json:"url"`
	ValueReference *Reference `json:"valueReference"`
}

// distinctFrom reads a written Patient's extensions (Patient.extension): the patients a
// distinct-from extension names, when confirm (a create); every other extension, and a
// distinct-from one where no registration is made, is dropped and noted, as any element the
// register does not keep.
func (h *Handler) distinctFrom(ctx context.Context, in patientIn, confirm bool, dropped *notes) ([]int64, error) {
	if len(in.Extension) == 0 {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(in.Extension, &list); err != nil {
		return nil, invalid("fhir.wrong_type", "Patient.extension", "Patient.extension")
	}
	var ids []int64
	for i, raw := range list {
		at := "Patient.extension[" + strconv.Itoa(i) + "]"
		var x extensionIn
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, invalid("fhir.wrong_type", at, at)
		}
		if !confirm || !h.isOwnDefinition(ctx, x.URL, distinctFromName) {
			dropped.drop("extension", at, x.URL)
			continue
		}
		// A confirmation is a comparison with the register: only a caller who may search it
		// may make one (as the twins are named only to it, duplicateRefusal).
		if !searchesRegister(auth.PrincipalFrom(ctx)) {
			return nil, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.distinct_from_forbidden", Expression: at}
		}
		id := int64(0)
		if x.ValueReference != nil {
			id = idOf(x.ValueReference.Reference, "Patient")
		}
		if id == 0 {
			return nil, invalid("fhir.distinct_from_value", at+".valueReference", x.URL)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// duplicateRefusal answers a registration refused as a possible duplicate (patient.TwinsOf)
// naming the patients it may be: in the text, in the caller's language, and one
// possible-duplicate extension (valueReference) each, which the client sends back as
// distinct-from once it has checked them. Any other error is the register's (asFHIR).
func (h *Handler) duplicateRefusal(ctx context.Context, err error) error {
	twins, ok := patient.TwinsOf(err)
	if !ok {
		return asFHIR(err)
	}
	// The twins are a search of the register by name, birth date and sex or by phone: named
	// only to a caller who may search it (searchesRegister), never to a create-only scope
	// nor to an app confined to one patient, which would learn who is registered.
	if !searchesRegister(auth.PrincipalFrom(ctx)) {
		return &Error{Status: http.StatusConflict, Code: "duplicate", Key: "fhir.possible_duplicate_unnamed", Expression: "Patient"}
	}
	confirm := h.ownDefinition(ctx, distinctFromName)
	if len(twins) == 0 {
		// The confirmation named patients, and none of them (nor any other) may be this one now.
		return &Error{Status: http.StatusConflict, Code: "duplicate", Key: "fhir.distinct_from_none", Args: []any{confirm}, Expression: "Patient.extension"}
	}
	refs := make([]string, len(twins))
	marks := make([]Extension, len(twins))
	named := h.ownDefinition(ctx, possibleDuplicateName)
	for i, id := range slices.Sorted(slices.Values(twins)) {
		refs[i] = "Patient/" + strconv.FormatInt(id, 10)
		marks[i] = Extension{URL: named, ValueReference: &Reference{Reference: refs[i]}}
	}
	return &Error{Status: http.StatusConflict, Code: "duplicate", Key: "fhir.possible_duplicate", Args: []any{strings.Join(refs, ", "), confirm},
		Expression: "Patient", Extension: marks}
}
