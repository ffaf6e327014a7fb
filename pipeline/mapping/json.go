package mapping

import (
	"bytes"
	"encoding/json"
)

// JSON exports m with two-space indentation and a final newline, for
// `lolbench mapping show --json` and for tools outside Go. HTML escaping is
// off so that quotes read "> text", not "\u003e text".
func JSON(m *Mapping) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
