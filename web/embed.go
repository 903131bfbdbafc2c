// Package web embeds the built web app (web/dist/app; web/dist/.keep lets a fresh clone compile before the first build) into the emr binary.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built web app's files.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist/app")
	if err != nil {
		panic(err)
	}
	return sub
}
