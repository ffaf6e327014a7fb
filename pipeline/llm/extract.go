package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// Validator is implemented by answer types that check more than the JSON
// shape (ranges, cross-field rules). Its error is fed back to the model
// verbatim, so it should name the field and the problem.
type Validator interface {
	Validate() error
}

// maxCandidates bounds the bracket positions tried when the JSON value is
// buried in prose, so a hostile answer full of braces stays linear-ish.
const maxCandidates = 128

// decodeAnswer extracts the JSON value from a model answer and decodes it
// strictly into a new value of typ (unknown fields and trailing data are
// errors), then runs its Validate method if it has one. The returned value is
// a pointer to the decoded value. Errors are phrased for the model: they say
// what is wrong with its answer.
func decodeAnswer(text string, typ reflect.Type) (reflect.Value, error) {
	raw, err := extractJSON(text, wantOpen(typ))
	if err != nil {
		return reflect.Value{}, err
	}
	ptr := reflect.New(typ)
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(ptr.Interface()); err != nil {
		return reflect.Value{}, describeJSONError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return reflect.Value{}, errors.New("the JSON value is followed by more data; send exactly one JSON value")
	}
	if v, ok := ptr.Interface().(Validator); ok {
		if err := v.Validate(); err != nil {
			return reflect.Value{}, fmt.Errorf("the JSON does not satisfy the schema: %v", err)
		}
	}
	return ptr, nil
}

// wantOpen is the bracket the expected value starts with: '{' for structs
// and maps, '[' for slices and arrays, 0 for anything.
func wantOpen(typ reflect.Type) byte {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Struct, reflect.Map:
		return '{'
	case reflect.Slice, reflect.Array:
		return '['
	}
	return 0
}

// extractJSON finds the JSON value in an answer. Models wrap JSON in
// ```json fences or a sentence of prose even in JSON mode, and some servers
// ignore response_format entirely, so the value is taken from, in order:
// the whole answer; the fenced blocks that hold valid JSON; the top-level
// bracket spans that are valid JSON. Two different candidates at the same
// level are ambiguous and rejected rather than guessed at. When nothing
// fits, the error describes the most likely candidate's problem.
func extractJSON(text string, open byte) (string, error) {
	kind := "JSON value"
	switch open {
	case '{':
		kind = "JSON object"
	case '[':
		kind = "JSON array"
	}
	matches := func(s string) bool { return open == 0 || (s != "" && s[0] == open) }
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return "", fmt.Errorf("the answer is empty; send a %s", kind)
	}
	if json.Valid([]byte(trimmed)) {
		if matches(trimmed) {
			return trimmed, nil
		}
		return "", fmt.Errorf("the answer is a %s, not the %s asked for", jsonKindOf(trimmed), kind)
	}
	var firstBad, wrong string // the candidate whose syntax we report; a valid value of the wrong kind
	pick := func(found []string) (string, bool, error) {
		switch len(found) {
		case 0:
			return "", false, nil
		case 1:
			return found[0], true, nil
		}
		return "", true, fmt.Errorf("the answer holds %d different %ss; send exactly one", len(found), kind)
	}
	var found []string
	add := func(s string) {
		if !slices.Contains(found, s) {
			found = append(found, s)
		}
	}
	for _, block := range fencedBlocks(trimmed) {
		b := strings.TrimSpace(block)
		switch {
		case b == "":
		case json.Valid([]byte(b)) && matches(b):
			add(b)
		case json.Valid([]byte(b)):
			wrong = b
		case firstBad == "" && matches(b) && (b[0] == '{' || b[0] == '['):
			firstBad = b
		}
	}
	if v, ok, err := pick(found); ok {
		return v, err
	}
	tried := 0
	for i := 0; i < len(trimmed) && tried < maxCandidates; i++ {
		c := trimmed[i]
		if c != '{' && c != '[' {
			continue
		}
		tried++
		end := balancedEnd(trimmed, i)
		if end < 0 {
			if firstBad == "" && matches(trimmed[i:]) {
				firstBad = trimmed[i:]
			}
			continue
		}
		span := trimmed[i:end]
		if !json.Valid([]byte(span)) {
			if firstBad == "" && matches(span) {
				firstBad = span
			}
			continue
		}
		if matches(span) {
			add(span)
		} else {
			wrong = span
		}
		i = end - 1 // nested values belong to this one
	}
	if v, ok, err := pick(found); ok {
		return v, err
	}
	if firstBad != "" {
		var v any
		if err := json.Unmarshal([]byte(firstBad), &v); err != nil {
			return "", fmt.Errorf("the answer is not valid JSON: %s", describeJSONError(err).Error())
		}
	}
	if wrong != "" {
		return "", fmt.Errorf("the answer holds a %s, not the %s asked for", jsonKindOf(wrong), kind)
	}
	return "", fmt.Errorf("the answer holds no %s; send only the %s", kind, kind)
}

// jsonKindOf names the kind of a valid JSON text.
func jsonKindOf(s string) string {
	switch s[0] {
	case '{':
		return "JSON object"
	case '[':
		return "JSON array"
	case '"':
		return "JSON string"
	case 't', 'f':
		return "JSON boolean"
	case 'n':
		return "JSON null"
	}
	return "JSON number"
}

// fencedBlocks returns the contents of ``` fenced blocks, info strings
// (```json) dropped. An unterminated last fence runs to the end, since a
// truncated answer is still worth a look.
func fencedBlocks(s string) []string {
	var blocks []string
	for {
		i := strings.Index(s, "```")
		if i < 0 {
			return blocks
		}
		s = s[i+3:]
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			return append(blocks, s)
		}
		info := strings.TrimSpace(s[:nl])
		body := s[nl+1:]
		if strings.ContainsAny(info, "{[") { // ```{"a":1}``` on one line
			body = s
		}
		j := strings.Index(body, "```")
		if j < 0 {
			return append(blocks, body)
		}
		blocks = append(blocks, body[:j])
		s = body[j+3:]
	}
}

// balancedEnd returns the index just past the bracket that closes the one at
// s[start], skipping brackets inside JSON strings, or -1.
func balancedEnd(s string, start int) int {
	depth := 0
	inString := false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// describeJSONError turns encoding/json errors into a sentence that names
// the field and the expected JSON type rather than Go types.
func describeJSONError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) && se.Error() == "unexpected end of JSON input":
		return errors.New("the JSON value is incomplete")
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte %d: %s", se.Offset, se.Error())
	case errors.As(err, &te):
		where := "the top-level value"
		if te.Field != "" {
			where = fmt.Sprintf("field %q", te.Field)
		}
		return fmt.Errorf("%s is a JSON %s but must be %s", where, te.Value, jsonKind(te.Type))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("the JSON value is incomplete")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// jsonKind names the JSON type that decodes into t.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}
