package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Prediction is one line of a SWE-bench predictions file.
type Prediction struct {
	InstanceID string `json:"instance_id"`
	Model      string `json:"model_name_or_path"`
	Patch      string `json:"model_patch"`
	// Origin is "FILE:LINE".
	Origin string `json:"-"`
}

// maxPredictionLine bounds one line (a patch of a very large solution is
// a few megabytes).
const maxPredictionLine = 256 << 20

// ReadPredictions reads a SWE-bench predictions file: one JSON object per
// line with instance_id, model_name_or_path and model_patch (null or
// missing is an empty patch: the agent produced nothing). Other fields are
// ignored, as harnesses add their own. A line that is not such an object
// is an error naming the file and line.
func ReadPredictions(path string) ([]Prediction, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("predictions: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var out []Prediction
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > maxPredictionLine {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", path, n, maxPredictionLine)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var raw map[string]json.RawMessage
			if jerr := json.Unmarshal(line, &raw); jerr != nil {
				return nil, fmt.Errorf("%s:%d: not a JSON object: %w", path, n, jerr)
			}
			var p Prediction
			for _, field := range []struct {
				name     string
				dst      *string
				required bool
			}{{"instance_id", &p.InstanceID, true}, {"model_name_or_path", &p.Model, true}, {"model_patch", &p.Patch, false}} {
				v, ok := raw[field.name]
				if !ok || string(bytes.TrimSpace(v)) == "null" {
					if field.required {
						return nil, fmt.Errorf("%s:%d: no %s", path, n, field.name)
					}
					continue
				}
				if jerr := json.Unmarshal(v, field.dst); jerr != nil {
					return nil, fmt.Errorf("%s:%d: %s is not a string", path, n, field.name)
				}
			}
			if p.InstanceID == "" {
				return nil, fmt.Errorf("%s:%d: empty instance_id", path, n)
			}
			p.Origin = fmt.Sprintf("%s:%d", path, n)
			out = append(out, p)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no predictions", path)
	}
	return out, nil
}
