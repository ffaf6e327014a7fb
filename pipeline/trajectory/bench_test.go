package trajectory

import (
	"bytes"
	"fmt"
	"testing"
)

// benchEvents is a 200-step trajectory of about 800 events.
func benchEvents() []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Write(&Event{Step: 1, Type: Message, Source: User, Text: "Implement the proposal as described in the task."})
	for s := 2; s <= 200; s++ {
		w.Write(&Event{Step: s, Type: Message, Source: Agent, Text: "Looking at the next part of the change; the TTL must be checked on read.", Tokens: &Tokens{Input: 800, Cached: 20000, Output: 150}})
		id := fmt.Sprintf("c%d", s)
		w.Write(&Event{Step: s, Type: ToolCall, ID: id, Tool: "read_file", Action: ActRead, FilesRead: []string{"store/store.go"}})
		w.Write(&Event{Step: s, Type: Result, ID: id, Text: "package store\n\nfunc Get(key string) (string, bool) {\n\treturn s.m[key]\n}\n"})
		p := s%2 == 0
		w.Write(&Event{Step: s, Type: TestRun, Command: "go test ./...", Passed: &p})
	}
	w.Flush()
	return buf.Bytes()
}

// BenchmarkReadJSONL decodes one 200-step trajectory.
func BenchmarkReadJSONL(b *testing.B) {
	data := benchEvents()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := ReadJSONL(bytes.NewReader(data), "b", func(*Event) error { n++; return nil }); err != nil || n != 797 {
			b.Fatal(err, n)
		}
	}
}
