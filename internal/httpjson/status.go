package httpjson

import "net/http"

// Recorder keeps the status code a handler answered with, for middleware that logs, counts
// or reacts to it; Unwrap lets http.ResponseController and WebSocket upgrades reach the
// connection beneath.
type Recorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader keeps the first status written.
func (r *Recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Write is a 200 unless a status was written before.
func (r *Recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap is the writer beneath.
func (r *Recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Status is the status answered: 200 when the handler wrote nothing at all.
func (r *Recorder) Status() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}
