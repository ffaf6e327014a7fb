// Package snapshot saves a store to JSON and loads it back.
package snapshot

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"example.com/tinykv/store"
)

// file is the snapshot document. Version 2 added expires_at; version 1
// snapshots load with no expiry.
type file struct {
	Version int     `json:"version"`
	Entries []entry `json:"entries"`
}

type entry struct {
	Key       string `json:"key"`
	Value     string `json:"value"`
	ExpiresAt int64  `json:"expires_at,omitempty"` // Unix seconds; 0: none
}

// Save writes every live item of s to w.
func Save(w io.Writer, s *store.Store) error {
	doc := file{Version: 2}
	for _, it := range s.Items() {
		e := entry{Key: it.Key, Value: it.Value}
		if !it.ExpiresAt.IsZero() {
			e.ExpiresAt = it.ExpiresAt.Unix()
		}
		doc.Entries = append(doc.Entries, e)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Load replaces the contents of s with the snapshot read from r. Entries
// that have already expired are skipped.
func Load(r io.Reader, s *store.Store) error {
	var doc file
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("read snapshot: %w", err)
	}
	items := make([]store.Item, 0, len(doc.Entries))
	for _, e := range doc.Entries {
		it := store.Item{Key: e.Key, Value: e.Value}
		if e.ExpiresAt != 0 {
			it.ExpiresAt = time.Unix(e.ExpiresAt, 0)
		}
		items = append(items, it)
	}
	s.Restore(items)
	return nil
}
