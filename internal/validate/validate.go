// Package validate holds the input checks that several packages share.
package validate

import "regexp"

// Email is the e-mail check of spec §5: local part, @, a dotted domain ending in two
// letters or a bracketed IPv4 address, shorter than 255 characters.
func Email(s string) bool { return len(s) < 255 && emailPattern.MatchString(s) }

// The spec's e-mail check (§5), shared with the web app's.
var emailPattern = regexp.MustCompile(`^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$`)
