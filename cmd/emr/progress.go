package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// barOpen is true while a progress bar's line is unfinished: an error then starts a line of
// its own.
var barOpen bool

// progressBar draws "[=====     ]  50%  500000/1000000  12s" on one terminal line.
func progressBar(w io.Writer, label string, total int) func(done int) {
	start := time.Now()
	return func(done int) {
		const width = 30
		filled := width * done / max(total, 1)
		fmt.Fprintf(w, "\r%s [%s%s] %3d%%  %d/%d  %s", label, strings.Repeat("=", filled), strings.Repeat(" ", width-filled),
			100*done/max(total, 1), done, total, time.Since(start).Round(time.Second))
		barOpen = done < total
		if !barOpen {
			fmt.Fprintln(w)
		}
	}
}
