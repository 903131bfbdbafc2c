package apitest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// SignaturePNG is a small drawn mark, for a doctor's signature.
func SignaturePNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 60, 20))
	for x := 5; x < 55; x++ {
		img.Set(x, 10, color.NRGBA{A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
