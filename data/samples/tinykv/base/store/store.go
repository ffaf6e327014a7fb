// Package store is tinykv's in-memory key-value store.
package store

import (
	"sort"
	"sync"
)

// Store is a map from keys to values that is safe for concurrent use.
type Store struct {
	mu   sync.Mutex
	data map[string]string
}

// New returns an empty store.
func New() *Store {
	return &Store{data: make(map[string]string)}
}

// Set stores value under key, replacing any previous value.
func (s *Store) Set(key, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[key] = value
}

// Get returns the value stored under key.
func (s *Store) Get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	return v, ok
}

// Delete removes key and reports whether it was present.
func (s *Store) Delete(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.data[key]
	delete(s.data, key)
	return ok
}

// Keys returns the stored keys in ascending order.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Item is one stored pair, as snapshots see it.
type Item struct {
	Key   string
	Value string
}

// Items returns every stored pair, ordered by key.
func (s *Store) Items() []Item {
	keys := s.Keys()
	s.mu.Lock()
	defer s.mu.Unlock()
	items := make([]Item, 0, len(keys))
	for _, k := range keys {
		if v, ok := s.data[k]; ok {
			items = append(items, Item{Key: k, Value: v})
		}
	}
	return items
}

// Restore replaces the contents of the store with items.
func (s *Store) Restore(items []Item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data = make(map[string]string, len(items))
	for _, it := range items {
		s.data[it.Key] = it.Value
	}
}
