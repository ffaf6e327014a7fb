package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// recordVersion changes when the key material or the record layout changes,
// so that old records are misses rather than misreadings.
const recordVersion = 1

// maxRecordBytes bounds a record file read back from the workspace; records
// are hostile input like any other file a person may edit.
const maxRecordBytes = 64 << 20

// responseFormatJSON is the response_format the client asks for.
const responseFormatJSON = "json_object"

// keyMaterial is everything that determines an answer, in a fixed field
// order; its JSON encoding is the canonical form hashed into the record key.
// The endpoint URL and key are deliberately absent: the same model answers
// the same question wherever it is served, and a run recorded against
// OpenRouter replays offline.
type keyMaterial struct {
	Version        int       `json:"v"`
	Model          string    `json:"model"`
	Messages       []Message `json:"messages"`
	Temperature    float64   `json:"temperature"`
	MaxTokens      int       `json:"max_tokens"`
	ResponseFormat string    `json:"response_format"`
	Schema         string    `json:"schema"`
}

// hashKey returns the hex SHA-256 of the canonical encoding of k.
func hashKey(k keyMaterial) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(k); err != nil {
		return "", fmt.Errorf("encode request key: %w", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

// Record is one exchange as written to <workspace>/llm/<hash[:2]>/<hash>.json:
// the request, every try (including transport failures and rejected
// answers, with the feedback sent back), the accepted answer, and the
// totals. It never holds the API key.
type Record struct {
	Version        int       `json:"version"`
	Hash           string    `json:"hash"`
	Stage          string    `json:"stage"`
	Model          string    `json:"model"`
	Schema         string    `json:"schema"`
	Messages       []Message `json:"messages"`
	Temperature    float64   `json:"temperature"`
	MaxTokens      int       `json:"max_tokens"`
	ResponseFormat string    `json:"response_format"`
	// OK is false when the exchange failed; such a record documents the
	// failure and is never served.
	OK         bool     `json:"ok"`
	Error      string   `json:"error,omitempty"`
	Answer     string   `json:"answer"`
	Tries      []Try    `json:"tries"`
	Asks       int      `json:"asks"`
	Usage      Usage    `json:"usage"`
	Cost       *float64 `json:"cost,omitempty"`
	LatencyMS  int64    `json:"latency_ms"`
	RecordedAt string   `json:"recorded_at"`
}

// Try is one HTTP request of an exchange.
type Try struct {
	// Ask numbers the answers asked for (1 for the first, 2 after the first
	// re-ask); Attempt numbers the HTTP requests within one ask.
	Ask     int `json:"ask"`
	Attempt int `json:"attempt"`
	// ResponseFormat is false when response_format was left out because
	// the server rejected it.
	ResponseFormat bool     `json:"response_format"`
	Status         int      `json:"status,omitempty"`
	Error          string   `json:"error,omitempty"`
	Answer         string   `json:"answer,omitempty"`
	FinishReason   string   `json:"finish_reason,omitempty"`
	Problem        string   `json:"problem,omitempty"`  // why the answer was rejected
	Feedback       string   `json:"feedback,omitempty"` // the message sent back
	Usage          Usage    `json:"usage"`
	Cost           *float64 `json:"cost,omitempty"`
	LatencyMS      int64    `json:"latency_ms"`
}

// Usage counts tokens as the endpoint reported them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (u *Usage) add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.TotalTokens += o.TotalTokens
}

var hashPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// recordPath is <dir>/<hash[:2]>/<hash>.json, checked to stay inside dir.
func recordPath(dir, hash string) (string, error) {
	if !hashPattern.MatchString(hash) {
		return "", fmt.Errorf("invalid record hash %q", hash)
	}
	return workspace.SafeJoin(dir, filepath.Join(hash[:2], hash+".json"))
}

// errNoRecord marks a record that does not exist.
var errNoRecord = errors.New("no record")

// readRecord reads and checks the record at path. A missing file is
// errNoRecord; anything else wrong (unreadable, too large, not our JSON,
// another hash, a different model or schema) is an error naming the file.
func readRecord(path, hash, model, schema string) (*Record, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoRecord
	}
	if err != nil {
		return nil, fmt.Errorf("read record %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read record %s: %w", path, err)
	}
	if len(data) > maxRecordBytes {
		return nil, fmt.Errorf("record %s: larger than %d bytes", path, maxRecordBytes)
	}
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("record %s: trailing data after the JSON object", path)
	}
	switch {
	case r.Version != recordVersion:
		return nil, fmt.Errorf("record %s: version %d, want %d", path, r.Version, recordVersion)
	case r.Hash != hash:
		return nil, fmt.Errorf("record %s: holds hash %q", path, r.Hash)
	case r.Model != model:
		return nil, fmt.Errorf("record %s: model %q, want %q", path, r.Model, model)
	case r.Schema != schema:
		return nil, fmt.Errorf("record %s: schema %q, want %q", path, r.Schema, schema)
	}
	return &r, nil
}
