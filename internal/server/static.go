package server

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// static serves the built web app: hashed assets with long cache lifetimes, precompressed
// (brotli or gzip) when the browser accepts it, and index.html for every other path so
// that the app's router can handle it.
type static struct{ files fs.FS }

func (s static) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if strings.HasPrefix(name, "m/") && s.exists("link.html") {
		// The page a patient's message links to: its own small entry, no staff app (ADR 42).
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Robots-Tag", "noindex")
		s.serve(w, r, "link.html", "no-cache")
		return
	}
	if (name == "portal" || strings.HasPrefix(name, "portal/")) && s.exists("portal.html") {
		// The patient portal: its own small entry, no staff app (ADR 44).
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Robots-Tag", "noindex")
		s.serve(w, r, "portal.html", "no-cache")
		return
	}
	if (name == "book" || strings.HasPrefix(name, "book/")) && s.exists("book.html") {
		// The public online booking page: its own small entry, no staff app (ADR 43).
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Robots-Tag", "noindex")
		s.serve(w, r, "book.html", "no-cache")
		return
	}
	if name == "" || name == "index.html" || !s.exists(name) {
		s.serve(w, r, "index.html", "no-cache")
		return
	}
	cache := "public, max-age=3600"
	if strings.HasPrefix(name, "assets/") { // file names carry a content hash
		cache = "public, max-age=31536000, immutable"
	}
	s.serve(w, r, name, cache)
}

func (s static) exists(name string) bool {
	st, err := fs.Stat(s.files, name)
	return err == nil && !st.IsDir()
}

func (s static) serve(w http.ResponseWriter, r *http.Request, name, cache string) {
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	file := name
	accept := r.Header.Get("Accept-Encoding")
	for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if strings.Contains(accept, enc.token) && s.exists(name+enc.ext) {
			file = name + enc.ext
			w.Header().Set("Content-Encoding", enc.token)
			break
		}
	}
	w.Header().Add("Vary", "Accept-Encoding")
	f, err := s.files.Open(file)
	if err != nil {
		http.Error(w, "the web app is not built: run make build", http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", cache)
	if rs, ok := f.(io.ReadSeeker); ok {
		http.ServeContent(w, r, "", time.Time{}, rs)
		return
	}
	_, _ = io.Copy(w, f)
}
