// Package snapshot saves a store to JSON and loads it back.
package snapshot

import (
	"encoding/json"
	"fmt"
	"io"

	"example.com/tinykv/store"
)

// file is the snapshot document.
type file struct {
	Version int     `json:"version"`
	Entries []entry `json:"entries"`
}

type entry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Save writes every item of s to w.
func Save(w io.Writer, s *store.Store) error {
	doc := file{Version: 1}
	for _, it := range s.Items() {
		doc.Entries = append(doc.Entries, entry{Key: it.Key, Value: it.Value})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Load replaces the contents of s with the snapshot read from r.
func Load(r io.Reader, s *store.Store) error {
	var doc file
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("read snapshot: %w", err)
	}
	items := make([]store.Item, 0, len(doc.Entries))
	for _, e := range doc.Entries {
		items = append(items, store.Item{Key: e.Key, Value: e.Value})
	}
	s.Restore(items)
	return nil
}
