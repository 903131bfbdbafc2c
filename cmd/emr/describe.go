package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"emr/internal/apperr"
	"emr/internal/i18n"
)

// describe turns a domain error into one English sentence for the terminal.
func describe(err error) error {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return err
	}
	if len(e.Fields) == 0 {
		return errors.New(i18n.T("en", e.Key, e.Args...))
	}
	fields := make([]string, 0, len(e.Fields))
	for f := range e.Fields {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	var parts []string
	for _, f := range fields {
		for _, k := range e.Fields[f] {
			parts = append(parts, fmt.Sprintf("%s: %s", f, i18n.T("en", k)))
		}
	}
	return errors.New(strings.Join(parts, "; "))
}
