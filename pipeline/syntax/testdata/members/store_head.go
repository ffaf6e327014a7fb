package store

import (
	"errors"
	"time"
)

// Special results of TTL.
const (
	NoExpiry time.Duration = -1
	Missing  time.Duration = -2 // the key does not exist
	missing2               = -3
)

// ErrInvalidTTL rejects a time to live that is zero or negative.
var ErrInvalidTTL, errOther = errors.New("invalid ttl"), errors.New("other")

var defaultClock = time.Now

// Item is one stored pair.
type Item struct {
	Key       string
	Value     string
	ExpiresAt time.Time `json:"expires_at,omitempty"` // zero: no expiry
	expired   bool
	*Meta
	Extra struct {
		Note string
	}
}

type value struct {
	data      string
	ExpiresAt time.Time
}

// Table has a long default.
var Table = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
}

func sweep() {
	const Local = 1
	type Hidden struct{ Field int }
}

type Alias = struct{ AliasField int }

type Meta struct{}
