package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

// Environment variables read by Resolve. The first three are the ones a user
// needs (docs/design.md, "Components"); the rest exist so a CI job can tune a run
// without a config file.
const (
	EnvBaseURL     = "LOLBENCH_LLM_BASE_URL"
	EnvAPIKey      = "LOLBENCH_LLM_API_KEY"
	EnvModel       = "LOLBENCH_LLM_MODEL"
	EnvTemperature = "LOLBENCH_LLM_TEMPERATURE"
	EnvMaxTokens   = "LOLBENCH_LLM_MAX_TOKENS"
	EnvTimeout     = "LOLBENCH_LLM_TIMEOUT"
	EnvMaxTries    = "LOLBENCH_LLM_MAX_TRIES"
	EnvConcurrency = "LOLBENCH_LLM_CONCURRENCY"
	EnvReplayOnly  = "LOLBENCH_LLM_REPLAY_ONLY"
	// EnvModelPrefix followed by an upper-case stage name sets that stage's
	// model, e.g. LOLBENCH_LLM_MODEL_AUDIT for a stronger judge.
	EnvModelPrefix = "LOLBENCH_LLM_MODEL_"
)

// Stages are the stage names that may carry their own model: the LLM-backed
// stages of phases 2 and 4 (docs/design.md, "What flows through it"), and the
// failure analysis of evaluated attempts (issue 15).
var Stages = []string{"map", "audit", "rank", "mutate", "augment", "analyze"}

// Defaults applied by Resolve and New to fields left unset. Temperature 0
// keeps reruns as close to deterministic as the endpoint allows; five in
// flight is the paper's "batches of five"; three tries bound both the
// transport retries and the re-asks after a malformed answer.
const (
	DefaultTemperature = 0.0
	DefaultTimeout     = 3 * time.Minute
	DefaultMaxTries    = 3
	DefaultConcurrency = 5
)

// Limits on configured values; anything outside is a typo, not a choice.
const (
	maxMaxTries    = 20
	maxConcurrency = 256
	maxTemperature = 2.0
	maxConfigBytes = 1 << 20
)

// ErrNoEndpoint is returned by Config.Validate and New when no endpoint is
// configured. Stages turn it into a skip (docs/design.md, "A stage with
// nothing to do"); its text is the user's next step.
var ErrNoEndpoint = errors.New("no LLM endpoint configured; set " + EnvBaseURL +
	" (and " + EnvModel + ", " + EnvAPIKey + " if the endpoint needs one)")

// Secret holds the API key. It prints, formats and marshals as "[redacted]"
// so that a Config logged with %+v or written to a report never carries the
// key; only the client reads the real value.
type Secret string

// String returns "[redacted]" for a non-empty secret and "" otherwise.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// GoString keeps %#v from printing the key.
func (s Secret) GoString() string { return strconv.Quote(s.String()) }

// Format keeps every fmt verb (%s, %v, %q, %x, ...) from printing the key.
func (s Secret) Format(f fmt.State, verb rune) { io.WriteString(f, s.String()) }

// MarshalJSON writes "[redacted]" (or "") instead of the key.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// MarshalText writes "[redacted]" (or "") instead of the key, for YAML, TOML
// and map keys.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Config is the LLM configuration shared by the map, audit, rank, mutate and
// augment stages. Resolve builds it from a YAML file, the environment and
// flags; zero values mean "unset" while merging and "default" afterwards.
type Config struct {
	// BaseURL is the OpenAI-compatible endpoint, e.g.
	// https://openrouter.ai/api/v1 or http://localhost:11434/v1.
	BaseURL string `json:"base_url,omitempty"`
	// APIKey is sent as a bearer token; empty for local servers.
	APIKey Secret `json:"-"`
	// Model is the default model for every stage.
	Model string `json:"model,omitempty"`
	// Models overrides Model per stage (keys from Stages), e.g. a stronger
	// judge for "audit".
	Models map[string]string `json:"models,omitempty"`
	// Temperature is sent with every request; nil means DefaultTemperature.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens caps each answer; 0 lets the server decide.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Timeout bounds one HTTP request (not the whole exchange).
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxTries bounds the tries of one request on timeouts, 429 and 5xx, and
	// separately the answers one question costs in all: the client's
	// re-asks after a malformed answer and a caller's re-asks with a
	// correction of an accepted answer draw on the same budget.
	MaxTries int `json:"max_tries,omitempty"`
	// Concurrency bounds the requests in flight across all callers.
	Concurrency int `json:"concurrency,omitempty"`
	// ReplayOnly serves every answer from the workspace records and fails on
	// a missing one instead of calling the endpoint, so a run can be
	// reproduced and audited without network access or spend.
	ReplayOnly bool `json:"replay_only,omitempty"`
}

// ModelFor returns the model used by stage: its override or the default.
func (c Config) ModelFor(stage string) string {
	if m := c.Models[stage]; m != "" {
		return m
	}
	return c.Model
}

// withDefaults fills the unset fields with the defaults.
func (c Config) withDefaults() Config {
	if c.Temperature == nil {
		t := DefaultTemperature
		c.Temperature = &t
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxTries == 0 {
		c.MaxTries = DefaultMaxTries
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	return c
}

// Validate reports whether c can drive a client. Without an endpoint it
// returns ErrNoEndpoint itself (not wrapped, so its text is exact). In
// ReplayOnly mode no endpoint is needed, but a model is, because records are
// keyed by it. Unset numeric fields count as their defaults.
func (c Config) Validate() error {
	if c.BaseURL == "" && !c.ReplayOnly {
		return ErrNoEndpoint
	}
	return c.withDefaults().checkValues()
}

// checkValues checks every set field's value; it does not require an
// endpoint, so Resolve can accept a config that a stage will later skip on.
func (c Config) checkValues() error {
	if c.BaseURL != "" {
		if err := checkBaseURL(c.BaseURL); err != nil {
			return err
		}
	}
	if (c.BaseURL != "" || c.ReplayOnly) && c.Model == "" {
		return fmt.Errorf("no LLM model configured; set %s (the endpoint's model name, e.g. openai/gpt-4o-mini)", EnvModel)
	}
	for _, k := range sortedKeys(c.Models) {
		if !slices.Contains(Stages, k) {
			return fmt.Errorf("models: unknown stage %q (known: %s)", k, strings.Join(Stages, ", "))
		}
	}
	if c.Temperature != nil {
		if err := checkTemperature(*c.Temperature); err != nil {
			return err
		}
	}
	if c.MaxTokens < 0 {
		return fmt.Errorf("max_tokens must not be negative, got %d", c.MaxTokens)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("timeout must be positive, got %s", c.Timeout)
	}
	if err := checkRange("max_tries", c.MaxTries, 0, maxMaxTries); err != nil {
		return err
	}
	return checkRange("concurrency", c.Concurrency, 0, maxConcurrency)
}

func checkTemperature(t float64) error {
	if !(t >= 0 && t <= maxTemperature) { // also rejects NaN
		return fmt.Errorf("temperature must be between 0 and %g, got %g", maxTemperature, t)
	}
	return nil
}

// checkRange accepts lo as "unset" and otherwise 1..hi.
func checkRange(name string, v, lo, hi int) error {
	if v != lo && (v < 1 || v > hi) {
		return fmt.Errorf("%s must be between 1 and %d, got %d", name, hi, v)
	}
	return nil
}

// checkBaseURL accepts an absolute http(s) URL. Its error never repeats a
// password embedded in the URL.
func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("base_url is not a URL: %s", redactURLError(err))
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base_url %q must be an absolute http or https URL, e.g. https://openrouter.ai/api/v1", u.Redacted())
	}
	return nil
}

// redactURLError drops the URL that url.Parse quotes in its errors, since it
// may carry credentials.
func redactURLError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// fileConfig is the YAML file's shape. Stage models are struct fields, not a
// map, so that a misspelt stage is an unknown field with a line number.
type fileConfig struct {
	BaseURL     string   `yaml:"base_url"`
	APIKey      string   `yaml:"api_key"`
	Model       string   `yaml:"model"`
	Models      *fileMod `yaml:"models"`
	Temperature *float64 `yaml:"temperature"`
	MaxTokens   int      `yaml:"max_tokens"`
	Timeout     string   `yaml:"timeout"`
	MaxTries    int      `yaml:"max_tries"`
	Concurrency int      `yaml:"concurrency"`
	ReplayOnly  bool     `yaml:"replay_only"`
}

type fileMod struct {
	Map     string `yaml:"map"`
	Audit   string `yaml:"audit"`
	Rank    string `yaml:"rank"`
	Mutate  string `yaml:"mutate"`
	Augment string `yaml:"augment"`
}

// LoadFile reads a YAML config file such as
//
//	base_url: https://openrouter.ai/api/v1
//	model: openai/gpt-4o-mini
//	models: {audit: anthropic/claude-sonnet-4}
//	temperature: 0
//	max_tokens: 8192
//	timeout: 3m
//	max_tries: 3
//	concurrency: 5
//
// Unknown fields are errors, and every error names the file and line.
// Defaults are not applied.
func LoadFile(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, fmt.Errorf("read llm config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return Config{}, fmt.Errorf("read llm config %s: %w", path, err)
	}
	if len(data) > maxConfigBytes {
		return Config{}, fmt.Errorf("llm config %s: larger than %d bytes", path, maxConfigBytes)
	}
	var fc fileConfig
	if err := yaml.UnmarshalWithOptions(data, &fc, yaml.Strict()); err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil {
			msg := ye.GetMessage()
			var te *yaml.TypeError
			if errors.As(err, &te) && te.StructFieldName != nil && te.SrcType != nil && te.DstType != nil {
				field := fileFieldName(*te.StructFieldName)
				if field == "models" && te.DstType.Kind() == reflect.String {
					// goccy/go-yaml names the outer field only; the stage
					// is the key on the offending line.
					field += "." + keyOnLine(data, te.Token.Position.Line)
				}
				msg = fmt.Sprintf("%s must be %s, got %s", field, jsonKind(te.DstType), yamlKind(te.SrcType))
			}
			return Config{}, fmt.Errorf("%s:%d: %s", path, ye.GetToken().Position.Line, msg)
		}
		return Config{}, fmt.Errorf("%s: %v", path, err)
	}
	at := func(field string, err error) error {
		if line := yamlLine(data, "$."+field); line > 0 {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	c := Config{
		BaseURL:     fc.BaseURL,
		APIKey:      Secret(fc.APIKey),
		Model:       fc.Model,
		Temperature: fc.Temperature,
		MaxTokens:   fc.MaxTokens,
		MaxTries:    fc.MaxTries,
		Concurrency: fc.Concurrency,
		ReplayOnly:  fc.ReplayOnly,
	}
	if fc.Models != nil {
		c.Models = map[string]string{}
		for stage, m := range map[string]string{"map": fc.Models.Map, "audit": fc.Models.Audit,
			"rank": fc.Models.Rank, "mutate": fc.Models.Mutate, "augment": fc.Models.Augment} {
			if m != "" {
				c.Models[stage] = m
			}
		}
	}
	if fc.Timeout != "" {
		d, err := time.ParseDuration(fc.Timeout)
		if err != nil || d <= 0 {
			return Config{}, at("timeout", fmt.Errorf("timeout %q is not a positive duration such as 90s or 3m", fc.Timeout))
		}
		c.Timeout = d
	}
	// Check each field alone so the error points at its line.
	checks := []struct {
		field string
		c     Config
	}{
		{"base_url", Config{BaseURL: c.BaseURL}},
		{"temperature", Config{Temperature: c.Temperature}},
		{"max_tokens", Config{MaxTokens: c.MaxTokens}},
		{"max_tries", Config{MaxTries: c.MaxTries}},
		{"concurrency", Config{Concurrency: c.Concurrency}},
	}
	for _, ch := range checks {
		ch.c.Model = "x" // the model requirement is checked after merging
		if err := ch.c.checkValues(); err != nil {
			return Config{}, at(ch.field, err)
		}
	}
	return c, nil
}

// fileFieldName turns the Go field path in a YAML type error
// ("fileConfig.MaxTries") into the key the user wrote ("max_tries").
func fileFieldName(goPath string) string {
	name := goPath[strings.LastIndexByte(goPath, '.')+1:]
	if f, ok := reflect.TypeFor[fileConfig]().FieldByName(name); ok {
		return f.Tag.Get("yaml")
	}
	if f, ok := reflect.TypeFor[fileMod]().FieldByName(name); ok {
		return "models." + f.Tag.Get("yaml")
	}
	return name
}

// keyOnLine returns the mapping key written on line n (1-based) of data.
func keyOnLine(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return "?"
	}
	key, _, _ := strings.Cut(strings.TrimSpace(lines[n-1]), ":")
	return strings.Trim(key, `"' `)
}

// yamlKind names the YAML kind of a decoded scalar's Go type.
func yamlKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
		return "a number"
	case reflect.Map:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	}
	return t.String()
}

// yamlLine returns the line of the node at path, or 0.
func yamlLine(data []byte, path string) int {
	p, err := yaml.PathString(path)
	if err != nil {
		return 0
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return 0
	}
	n, err := p.FilterFile(f)
	if err != nil || n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// FromEnv reads the LOLBENCH_LLM_* variables through getenv (nil means an
// empty environment). Empty variables are unset. A malformed value is an
// error naming the variable.
func FromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c := Config{
		BaseURL: getenv(EnvBaseURL),
		APIKey:  Secret(getenv(EnvAPIKey)),
		Model:   getenv(EnvModel),
	}
	for _, s := range Stages {
		if m := getenv(EnvModelPrefix + strings.ToUpper(s)); m != "" {
			if c.Models == nil {
				c.Models = map[string]string{}
			}
			c.Models[s] = m
		}
	}
	if v := getenv(EnvTemperature); v != "" {
		t, err := strconv.ParseFloat(v, 64)
		if err == nil {
			err = checkTemperature(t)
		}
		if err != nil {
			return Config{}, fmt.Errorf("%s=%q: want a number between 0 and %g", EnvTemperature, v, maxTemperature)
		}
		c.Temperature = &t
	}
	ints := []struct {
		name string
		dst  *int
		hi   int
	}{
		{EnvMaxTokens, &c.MaxTokens, 1 << 30},
		{EnvMaxTries, &c.MaxTries, maxMaxTries},
		{EnvConcurrency, &c.Concurrency, maxConcurrency},
	}
	for _, in := range ints {
		if v := getenv(in.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > in.hi {
				return Config{}, fmt.Errorf("%s=%q: want a whole number between 1 and %d", in.name, v, in.hi)
			}
			*in.dst = n
		}
	}
	if v := getenv(EnvTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Config{}, fmt.Errorf("%s=%q: want a positive duration such as 90s or 3m", EnvTimeout, v)
		}
		c.Timeout = d
	}
	if v := getenv(EnvReplayOnly); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return Config{}, fmt.Errorf("%s=%q: want true or false", EnvReplayOnly, v)
		}
		c.ReplayOnly = b
	}
	return c, nil
}

// Merge returns c with every set field of over laid on top. Stage models
// merge per stage. ReplayOnly can only be switched on by a later layer.
func (c Config) Merge(over Config) Config {
	if over.BaseURL != "" {
		c.BaseURL = over.BaseURL
	}
	if over.APIKey != "" {
		c.APIKey = over.APIKey
	}
	if over.Model != "" {
		c.Model = over.Model
	}
	if len(over.Models) > 0 {
		m := make(map[string]string, len(c.Models)+len(over.Models))
		for k, v := range c.Models {
			m[k] = v
		}
		for k, v := range over.Models {
			if v != "" {
				m[k] = v
			}
		}
		c.Models = m
	}
	if over.Temperature != nil {
		t := *over.Temperature
		c.Temperature = &t
	}
	if over.MaxTokens != 0 {
		c.MaxTokens = over.MaxTokens
	}
	if over.Timeout != 0 {
		c.Timeout = over.Timeout
	}
	if over.MaxTries != 0 {
		c.MaxTries = over.MaxTries
	}
	if over.Concurrency != 0 {
		c.Concurrency = over.Concurrency
	}
	c.ReplayOnly = c.ReplayOnly || over.ReplayOnly
	return c
}

// Resolve builds the configuration from three layers, each overriding the
// one before: the YAML file (skipped when file is ""), the environment read
// through getenv, and overrides (usually the command's flags; zero fields
// are unset). Defaults fill what is left. Malformed values are errors naming
// the file and line, the variable, or the field. A missing endpoint is not an
// error here: Validate (and New) report it as ErrNoEndpoint, so a command can
// resolve first and skip the LLM stages later.
func Resolve(file string, getenv func(string) string, overrides Config) (Config, error) {
	var c Config
	if file != "" {
		fc, err := LoadFile(file)
		if err != nil {
			return Config{}, err
		}
		c = fc
	}
	env, err := FromEnv(getenv)
	if err != nil {
		return Config{}, err
	}
	c = c.Merge(env).Merge(overrides).withDefaults()
	if err := c.checkValues(); err != nil {
		if file != "" {
			return Config{}, fmt.Errorf("llm config (%s, environment, flags): %w", file, err)
		}
		return Config{}, fmt.Errorf("llm config (environment, flags): %w", err)
	}
	return c, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
