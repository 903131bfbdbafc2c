package backups

// Busy marks s as writing an archive until the returned func is called, as a run in
// progress would.
func Busy(s *Scheduler) (release func()) {
	s.mu.Lock()
	s.running = true
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}
}
