package store

import "time"

// Sweep removes every expired key once and returns how many it removed.
func (s *Store) Sweep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	removed := 0
	for k, v := range s.data {
		if v.expired(now) {
			delete(s.data, k)
			removed++
		}
	}
	return removed
}

// StartSweeper removes expired keys every interval until the returned
// function is called.
func (s *Store) StartSweeper(interval time.Duration) (stop func()) {
	done := make(chan struct{})
	ticker := time.NewTicker(interval)
	go func() {
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				s.Sweep()
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}
