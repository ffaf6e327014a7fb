package store

import "time"

// Special results of TTL.
const (
	NoExpiry time.Duration = -1
)

var defaultClock = time.Now

// Item is one stored pair.
type Item struct {
	Key   string
	Value string
}

type value struct {
	data string
}
