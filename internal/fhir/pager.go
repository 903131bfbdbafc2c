package fhir

import (
	"context"

	"emr/internal/document"
	"emr/internal/prescription"
	"emr/internal/result"
)

// pager reads one kind of record a page at a time in id order (a store's Page method).
type pager[T any] struct {
	page func(ctx context.Context, after int64, desc bool, limit int) ([]T, error)
	id   func(T) int64
}

// source pages the records as groups of the resources expand makes of each; nothing when
// the search can match none.
func (p pager[T]) source(match bool, expand func(T) []Resource) source {
	return func(ctx context.Context, after int64, desc bool, limit int) ([]group, error) {
		if !match {
			return nil, nil
		}
		list, err := p.page(ctx, after, desc, limit)
		if err != nil {
			return nil, err
		}
		out := make([]group, len(list))
		for i, x := range list {
			out[i] = group{ID: p.id(x), Resources: expand(x)}
		}
		return out, nil
	}
}

// each hands fn every record, a batch at a time, calling step after each batch.
func (p pager[T]) each(ctx context.Context, fn func(T) error, step func() error) error {
	var after int64
	for {
		list, err := p.page(ctx, after, false, exportBatch)
		if err != nil {
			return err
		}
		for _, x := range list {
			if err := fn(x); err != nil {
				return err
			}
		}
		if err := step(); err != nil {
			return err
		}
		if len(list) < exportBatch {
			return nil
		}
		after = p.id(list[len(list)-1])
	}
}

// The pagers of the records the API reads beside visits: of one patient when patientID is
// not 0, among ids when there are any.

func (h *Handler) orders(ids []int64, patientID int64, lang string) pager[result.Order] {
	return pager[result.Order]{
		page: func(ctx context.Context, after int64, desc bool, limit int) ([]result.Order, error) {
			return h.Results.Page(ctx, ids, patientID, after, desc, limit, lang)
		},
		id: func(o result.Order) int64 { return o.ID },
	}
}

func (h *Handler) prescriptions(ids []int64, patientID int64) pager[prescription.Prescription] {
	return pager[prescription.Prescription]{
		page: func(ctx context.Context, after int64, desc bool, limit int) ([]prescription.Prescription, error) {
			return h.Prescriptions.Page(ctx, ids, patientID, after, desc, limit)
		},
		id: func(rx prescription.Prescription) int64 { return rx.ID },
	}
}

func (h *Handler) taken(ids []int64, patientID int64) pager[prescription.Taken] {
	return pager[prescription.Taken]{
		page: func(ctx context.Context, after int64, desc bool, limit int) ([]prescription.Taken, error) {
			return h.Prescriptions.TakenPage(ctx, ids, patientID, after, desc, limit)
		},
		id: func(t prescription.Taken) int64 { return t.ID },
	}
}

func (h *Handler) documents(ids []int64, patientID int64) pager[document.Document] {
	return pager[document.Document]{
		page: func(ctx context.Context, after int64, desc bool, limit int) ([]document.Document, error) {
			return h.Documents.Page(ctx, ids, patientID, after, desc, limit)
		},
		id: func(d document.Document) int64 { return d.ID },
	}
}

func nothing() error { return nil }
