// Package store is tinykv's in-memory key-value store.
package store

import (
	"errors"
	"sort"
	"sync"
	"time"
)

// ErrInvalidTTL rejects a time to live that is zero or negative.
var ErrInvalidTTL = errors.New("invalid ttl")

// Special results of TTL.
const (
	NoExpiry time.Duration = -1 // the key exists and does not expire
	Missing  time.Duration = -2 // the key does not exist or has expired
)

type value struct {
	data      string
	expiresAt time.Time // zero: no expiry
}

func (v value) expired(now time.Time) bool {
	return !v.expiresAt.IsZero() && !now.Before(v.expiresAt)
}

// Store is a map from keys to values that is safe for concurrent use.
type Store struct {
	mu   sync.Mutex
	data map[string]value
	now  func() time.Time
}

// New returns an empty store.
func New() *Store {
	return NewWithClock(time.Now)
}

// NewWithClock returns an empty store that reads the time from now, so that
// tests can control expiry.
func NewWithClock(now func() time.Time) *Store {
	return &Store{data: make(map[string]value), now: now}
}

// Set stores value under key, replacing any previous value and its expiry.
func (s *Store) Set(key, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[key] = value{data: v}
}

// SetWithTTL stores value under key until ttl has passed.
func (s *Store) SetWithTTL(key, v string, ttl time.Duration) error {
	if ttl <= 0 {
		return ErrInvalidTTL
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[key] = value{data: v, expiresAt: s.now().Add(ttl)}
	return nil
}

// TTL returns the remaining time to live of key, NoExpiry or Missing.
func (s *Store) TTL(key string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	now := s.now()
	switch {
	case !ok || v.expired(now):
		return Missing
	case v.expiresAt.IsZero():
		return NoExpiry
	}
	return v.expiresAt.Sub(now)
}

// Get returns the value stored under key.
func (s *Store) Get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	if !ok || v.expired(s.now()) {
		return "", false
	}
	return v.data, true
}

// Delete removes key and reports whether it was present.
func (s *Store) Delete(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	delete(s.data, key)
	return ok && !v.expired(s.now())
}

// Keys returns the live keys in ascending order.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	keys := make([]string, 0, len(s.data))
	for k, v := range s.data {
		if !v.expired(now) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// Item is one stored pair, as snapshots see it.
type Item struct {
	Key       string
	Value     string
	ExpiresAt time.Time // zero: no expiry
}

// Items returns every live pair, ordered by key.
func (s *Store) Items() []Item {
	keys := s.Keys()
	s.mu.Lock()
	defer s.mu.Unlock()
	items := make([]Item, 0, len(keys))
	for _, k := range keys {
		if v, ok := s.data[k]; ok {
			items = append(items, Item{Key: k, Value: v.data, ExpiresAt: v.expiresAt})
		}
	}
	return items
}

// Restore replaces the contents of the store with items, skipping items
// that have already expired.
func (s *Store) Restore(items []Item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.data = make(map[string]value, len(items))
	for _, it := range items {
		v := value{data: it.Value, expiresAt: it.ExpiresAt}
		if !v.expired(now) {
			s.data[it.Key] = v
		}
	}
}
