package llm

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func fp(f float64) *float64 { return &f }

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolvePrecedence(t *testing.T) {
	env := map[string]string{
		EnvBaseURL:               "https://env.example/api/v1",
		EnvAPIKey:                "env-key",
		EnvModel:                 "env-model",
		EnvModelPrefix + "AUDIT": "env-judge",
		EnvModelPrefix + "RANK":  "env-ranker",
		EnvTemperature:           "0.5",
		EnvTimeout:               "10s",
		EnvConcurrency:           "7",
	}
	flags := Config{Model: "flag-model", Models: map[string]string{"audit": "flag-judge"},
		Temperature: fp(0), MaxTries: 2, ReplayOnly: true}
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		flags Config
		want  Config
	}{
		{"defaults only", "", nil, Config{}, Config{
			Temperature: fp(0), Timeout: 3 * time.Minute, MaxTries: 3, Concurrency: 5}},
		{"file", "testdata/llm.yaml", nil, Config{}, Config{
			BaseURL: "http://file.example/v1", APIKey: "file-key", Model: "file-model",
			Models:      map[string]string{"audit": "file-judge", "map": "file-mapper"},
			Temperature: fp(0.2), MaxTokens: 1000, Timeout: 45 * time.Second, MaxTries: 4, Concurrency: 3}},
		{"file < env", "testdata/llm.yaml", env, Config{}, Config{
			BaseURL: "https://env.example/api/v1", APIKey: "env-key", Model: "env-model",
			Models:      map[string]string{"audit": "env-judge", "map": "file-mapper", "rank": "env-ranker"},
			Temperature: fp(0.5), MaxTokens: 1000, Timeout: 10 * time.Second, MaxTries: 4, Concurrency: 7}},
		{"file < env < flags", "testdata/llm.yaml", env, flags, Config{
			BaseURL: "https://env.example/api/v1", APIKey: "env-key", Model: "flag-model",
			Models:      map[string]string{"audit": "flag-judge", "map": "file-mapper", "rank": "env-ranker"},
			Temperature: fp(0), MaxTokens: 1000, Timeout: 10 * time.Second, MaxTries: 2, Concurrency: 7,
			ReplayOnly: true}},
		{"env only", "", env, Config{}, Config{
			BaseURL: "https://env.example/api/v1", APIKey: "env-key", Model: "env-model",
			Models:      map[string]string{"audit": "env-judge", "rank": "env-ranker"},
			Temperature: fp(0.5), Timeout: 10 * time.Second, MaxTries: 3, Concurrency: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.file, envOf(tt.env), tt.flags)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.APIKey) != string(tt.want.APIKey) || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Resolve =\n%#v (temperature %v, key %q)\nwant\n%#v (temperature %v, key %q)",
					got, *got.Temperature, string(got.APIKey), tt.want, *tt.want.Temperature, string(tt.want.APIKey))
			}
		})
	}
	// Merging never aliases the caller's maps.
	if flags.Models["map"] != "" {
		t.Fatalf("Resolve wrote into the overrides' Models: %v", flags.Models)
	}
}

func TestModelFor(t *testing.T) {
	c := Config{Model: "base", Models: map[string]string{"audit": "judge"}}
	for stage, want := range map[string]string{"audit": "judge", "map": "base", "future": "base"} {
		if got := c.ModelFor(stage); got != want {
			t.Errorf("ModelFor(%q) = %q, want %q", stage, got, want)
		}
	}
}

func TestLoadFileErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string // want follows "<path>:"
	}{
		{"unknown field", "model: m\nbase_url: http://x\nmodle: y\n", `3: unknown field "modle"`},
		{"unknown stage", "model: m\nmodels:\n  map: a\n  judge: b\n", `4: unknown field "judge"`},
		{"bad timeout", "model: m\n\ntimeout: soon\n", `3: timeout "soon" is not a positive duration such as 90s or 3m`},
		{"negative timeout", "timeout: -1s\n", `1: timeout "-1s" is not a positive duration such as 90s or 3m`},
		{"concurrency", "model: m\nconcurrency: -2\n", "2: concurrency must be between 1 and 256, got -2"},
		{"max tries", "max_tries: 99\n", "1: max_tries must be between 1 and 20, got 99"},
		{"temperature", "model: m\ntemperature: 3\n", "2: temperature must be between 0 and 2, got 3"},
		{"max tokens", "max_tokens: -5\n", "1: max_tokens must not be negative, got -5"},
		{"base url", "model: m\nbase_url: ftp://x/v1\n",
			`2: base_url "ftp://x/v1" must be an absolute http or https URL, e.g. https://openrouter.ai/api/v1`},
		{"base url password", "base_url: //user:hunter2@/v1\n",
			`1: base_url "//user:xxxxx@/v1" must be an absolute http or https URL, e.g. https://openrouter.ai/api/v1`},
		{"wrong type", "model: m\nmax_tries: many\n", "2: max_tries must be a whole number, got a string"},
		{"wrong type nested", "models:\n  audit: [a, b]\n", "2: models.audit must be a string, got a list"},
		{"wrong type bool", "replay_only: 3\n", "1: replay_only must be true or false, got a number"},
		{"models not a mapping", "models: judge\n", "1: string was used where mapping is expected"},
		{"syntax", "model: [unclosed\n", "1: sequence end token ']' not found"},
		{"duplicate key", "model: a\nmodel: b\n", `2: mapping key "model" already defined at [1:1]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "llm.yaml")
			os.WriteFile(path, []byte(tt.yaml), 0o644)
			_, err := LoadFile(path)
			if want := path + ":" + tt.want; err == nil || err.Error() != want {
				t.Fatalf("err = %v\nwant %s", err, want)
			}
			if _, err := Resolve(path, nil, Config{}); err == nil {
				t.Fatal("Resolve accepted the file")
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "none.yaml")
	if _, err := Resolve(missing, nil, Config{}); err == nil || err.Error() != "read llm config: open "+missing+": no such file or directory" {
		t.Fatalf("missing file: %v", err)
	}
}

func TestEmptyFileIsAllDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "llm.yaml")
	os.WriteFile(path, []byte("# nothing yet\n"), 0o644)
	got, err := Resolve(path, nil, Config{})
	want := Config{Temperature: fp(0), Timeout: DefaultTimeout, MaxTries: DefaultMaxTries, Concurrency: DefaultConcurrency}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Resolve = %+v, %v", got, err)
	}
}

func TestEnvErrors(t *testing.T) {
	tests := []struct {
		k, v, want string
	}{
		{EnvMaxTries, "abc", `LOLBENCH_LLM_MAX_TRIES="abc": want a whole number between 1 and 20`},
		{EnvMaxTries, "0", `LOLBENCH_LLM_MAX_TRIES="0": want a whole number between 1 and 20`},
		{EnvConcurrency, "1000", `LOLBENCH_LLM_CONCURRENCY="1000": want a whole number between 1 and 256`},
		{EnvMaxTokens, "-1", `LOLBENCH_LLM_MAX_TOKENS="-1": want a whole number between 1 and 1073741824`},
		{EnvTemperature, "NaN", `LOLBENCH_LLM_TEMPERATURE="NaN": want a number between 0 and 2`},
		{EnvTemperature, "hot", `LOLBENCH_LLM_TEMPERATURE="hot": want a number between 0 and 2`},
		{EnvTimeout, "30", `LOLBENCH_LLM_TIMEOUT="30": want a positive duration such as 90s or 3m`},
		{EnvReplayOnly, "maybe", `LOLBENCH_LLM_REPLAY_ONLY="maybe": want true or false`},
		{EnvBaseURL, "localhost:8080", `llm config (environment, flags): base_url "localhost:8080" must be an absolute http or https URL, e.g. https://openrouter.ai/api/v1`},
		{EnvBaseURL, "http://localhost:8080/v1", `llm config (environment, flags): no LLM model configured; set LOLBENCH_LLM_MODEL (the endpoint's model name, e.g. openai/gpt-4o-mini)`},
		{EnvModelPrefix + "MAP", "", ""}, // empty is unset
	}
	for _, tt := range tests {
		_, err := Resolve("", envOf(map[string]string{tt.k: tt.v}), Config{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s=%q: err = %q\nwant %q", tt.k, tt.v, got, tt.want)
		}
	}
}

func TestOverrideErrors(t *testing.T) {
	tests := []struct {
		flags Config
		want  string
	}{
		{Config{MaxTries: -1}, "llm config (environment, flags): max_tries must be between 1 and 20, got -1"},
		{Config{Models: map[string]string{"judge": "x"}},
			`llm config (environment, flags): models: unknown stage "judge" (known: map, audit, rank, mutate, augment, analyze)`},
		{Config{ReplayOnly: true}, "llm config (environment, flags): no LLM model configured; set LOLBENCH_LLM_MODEL (the endpoint's model name, e.g. openai/gpt-4o-mini)"},
		{Config{Timeout: -time.Second}, "llm config (environment, flags): timeout must be positive, got -1s"},
	}
	for _, tt := range tests {
		if _, err := Resolve("", nil, tt.flags); err == nil || err.Error() != tt.want {
			t.Errorf("Resolve(%+v) = %v\nwant %s", tt.flags, err, tt.want)
		}
	}
	if _, err := Resolve("testdata/llm.yaml", nil, Config{MaxTries: 50}); err == nil ||
		err.Error() != "llm config (testdata/llm.yaml, environment, flags): max_tries must be between 1 and 20, got 50" {
		t.Errorf("with file: %v", err)
	}
}

func TestSecretNeverPrints(t *testing.T) {
	s := Secret("sk-abc")
	for _, got := range []string{s.String(), s.GoString(), string(must(s.MarshalJSON())), string(must(s.MarshalText()))} {
		if got != "[redacted]" && got != `"[redacted]"` {
			t.Errorf("got %q", got)
		}
	}
	if Secret("").String() != "" {
		t.Error("empty secret prints")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
