package profile

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"

	"emr/internal/apperr"
)

// Picture kinds.
const (
	KindAvatar    = "avatar"
	KindSignature = "signature"
)

// Upload limits: a drawn signature is a few kilobytes, a scanned one well under this.
const (
	MaxSignature = 1 << 20
	MaxAvatar    = 2 << 20
	maxPixels    = 4096
)

// signatureType decides a signature's type from its bytes (never its name or the header
// the browser sent) and checks it: PNG, JPEG or SVG only (spec §5), a real image that is
// not blank, and an SVG that is only a drawing.
func signatureType(data []byte) (string, error) {
	switch ct := detect(data); ct {
	case "image/png", "image/jpeg":
		img, err := decode(ct, data)
		if err != nil {
			return "", apperr.Invalid("profile.signature_type")
		}
		if blank(img) {
			return "", apperr.Invalid("profile.signature_empty")
		}
		return ct, nil
	}
	if err := checkSVG(data); err != nil {
		return "", err
	}
	return "image/svg+xml", nil
}

// avatarType accepts PNG, JPEG and WebP photos.
func avatarType(data []byte) (string, error) {
	ct := detect(data)
	switch ct {
	case "image/png", "image/jpeg":
		if _, err := decode(ct, data); err != nil {
			return "", apperr.Invalid("profile.avatar_type")
		}
		return ct, nil
	case "image/webp":
		return ct, nil
	}
	return "", apperr.Invalid("profile.avatar_type")
}

func detect(data []byte) string { return strings.Split(http.DetectContentType(data), ";")[0] }

func decode(ct string, data []byte) (image.Image, error) {
	var cfg image.Config
	var err error
	if ct == "image/png" {
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	} else {
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil || cfg.Width > maxPixels || cfg.Height > maxPixels || cfg.Width == 0 || cfg.Height == 0 {
		return nil, apperr.Invalid("profile.signature_type")
	}
	if ct == "image/png" {
		return png.Decode(bytes.NewReader(data))
	}
	return jpeg.Decode(bytes.NewReader(data))
}

// blank reports whether an image has no mark: every pixel transparent or near-white.
func blank(img image.Image) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if a > 0x2000 && (r < 0xe000 || g < 0xe000 || bl < 0xe000) {
				return false
			}
		}
	}
	return true
}

// svgElements are the elements a drawn signature may contain.
var svgElements = []string{"svg", "g", "path", "circle", "ellipse", "line", "polyline", "polygon", "rect", "title", "desc", "defs", "metadata"}

// checkSVG accepts an SVG document made only of drawing elements: no script, no
// foreign content, no event handlers, no links out, no entities.
func checkSVG(data []byte) error {
	bad := apperr.Invalid("profile.signature_type")
	if bytes.Contains(data, []byte("<!ENTITY")) || bytes.Contains(data, []byte("<!DOCTYPE")) {
		return bad
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	depth, root, marks := 0, false, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return bad
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root || t.Name.Local != "svg" {
					return bad
				}
				root = true
			}
			if !slices.Contains(svgElements, t.Name.Local) {
				return bad
			}
			switch t.Name.Local {
			case "path", "circle", "ellipse", "line", "polyline", "polygon":
				marks++
			}
			for _, a := range t.Attr {
				name, value := strings.ToLower(a.Name.Local), strings.ToLower(strings.TrimSpace(a.Value))
				if strings.HasPrefix(name, "on") || strings.Contains(value, "url(") || strings.Contains(value, "javascript:") ||
					((name == "href" || name == "src") && !strings.HasPrefix(value, "#")) {
					return bad
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.ProcInst:
			if t.Target != "xml" {
				return bad
			}
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return bad
			}
		}
	}
	if !root {
		return bad
	}
	if marks == 0 {
		return apperr.Invalid("profile.signature_empty")
	}
	return nil
}
