package safeyaml

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestZZProbe(t *testing.T) {
	name := os.Getenv("PROBE")
	if name == "" {
		t.Skip()
	}
	s := []byte(hostile[name]())
	start := time.Now()
	_, err := Parse(s)
	fmt.Printf("%s %d %v %v\n", name, len(s), time.Since(start), err)
}
