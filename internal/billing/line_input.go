package billing

import (
	"context"
	"emr/internal/apperr"
	"emr/internal/database"
	"errors"
	"strings"
	"unicode/utf8"
)

// LineInput is a charge to add or change: a service of the price list (its price unless
// UnitPrice says otherwise, which needs the override permission) or free text with a price.
type LineInput struct {
	ServiceID      *int64 `json:"service_id"`
	Description    string `json:"description"`
	Quantity       int64  `json:"quantity"`
	UnitPrice      *Money `json:"unit_price"`
	DiscountKind   string `json:"discount_kind"`
	DiscountValue  int64  `json:"discount_value"`
	DiscountReason string `json:"discount_reason"`
	// ConfirmDuplicate charges a service the bill has already, on purpose (a second
	// injection); without it such a charge is refused with a 409 that names the service.
	ConfirmDuplicate bool `json:"confirm_duplicate"`
}

// MayOverride says whether the writer may charge a service at another than its listed price.
type MayOverride bool

// line checks in and makes the line it charges.
func line(ctx context.Context, tx database.Querier, in LineInput, override MayOverride) (Line, error) {
	var v apperr.Validation
	l := Line{ServiceID: in.ServiceID, Description: strings.TrimSpace(in.Description), Quantity: in.Quantity, Category: "other",
		DiscountKind: in.DiscountKind, DiscountValue: in.DiscountValue, DiscountReason: strings.TrimSpace(in.DiscountReason)}
	if in.Quantity < 1 || in.Quantity > 1000 {
		v.Add("quantity", "billing.bad_quantity")
	}
	if utf8.RuneCountInString(l.Description) > 200 {
		v.Add("description", "validation.too_long")
	}
	if utf8.RuneCountInString(l.DiscountReason) > apperr.MaxReason {
		v.Add("discount_reason", "validation.too_long")
	}
	checkDiscount(&v, "discount", in.DiscountKind, in.DiscountValue, in.DiscountReason)
	if in.UnitPrice != nil && (*in.UnitPrice < 0 || *in.UnitPrice > maxMoney) {
		v.Add("unit_price", "billing.bad_amount")
	}
	if in.ServiceID == nil {
		if l.Description == "" {
			v.Add("description", "billing.line_needs_service_or_text")
		}
		if in.UnitPrice == nil {
			v.Add("unit_price", "validation.required")
		}
	}
	if err := v.Err(); err != nil {
		return l, err
	}
	if in.ServiceID != nil {
		sv, err := getService(ctx, tx, *in.ServiceID)
		if errors.Is(err, apperr.ErrNotFound) || (err == nil && !sv.Active) {
			v.Add("service_id", "billing.service_not_found")
			return l, v.Err()
		}
		if err != nil {
			return l, err
		}
		l.Code, l.Category, l.UnitPrice = sv.Code, sv.Category, sv.Price
		if l.Description == "" {
			l.Description = sv.Name
		}
		if in.UnitPrice != nil && *in.UnitPrice != sv.Price {
			if !override {
				return l, apperr.Forbidden("billing.price_override_forbidden")
			}
			l.UnitPrice = *in.UnitPrice
		}
	} else {
		l.UnitPrice = *in.UnitPrice
	}
	gross := l.UnitPrice * Money(l.Quantity) // a price times a count
	if gross > maxMoney {
		v.Add("quantity", "billing.bad_amount")
		return l, v.Err()
	}
	l.Discount = gross.Discount(l.DiscountKind, l.DiscountValue)
	l.Amount = gross - l.Discount
	return l, nil
}
