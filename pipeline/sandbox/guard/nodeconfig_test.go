package guard

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestResetNodeConfig: package.json's scripts and runner keys, and a
// tsconfig's ts-node options and extends, reset the whole file when they
// changed; other changes are kept.
func TestResetNodeConfig(t *testing.T) {
	pkg := "{\n  \"name\": \"bumpkit\",\n  \"version\": \"1.1.0\",\n  \"scripts\": {\"test\": \"lolbench-node-test test\"}\n}\n"
	ts := "{\n  // comments and trailing commas, as tsc allows\n  \"compilerOptions\": {\"strict\": true, /* inline */ \"module\": \"commonjs\",},\n}\n"
	tests := []struct {
		name, file, cur, base, section string
		want                           string
		whole                          bool
	}{
		{"package.json: the version bumped", "package.json", `{"name":"bumpkit","version":"1.2.0","scripts":{"test":"lolbench-node-test test"}}`, pkg, PackageJSONTestSection,
			`{"name":"bumpkit","version":"1.2.0","scripts":{"test":"lolbench-node-test test"}}`, false},
		{"package.json: the test script replaced", "package.json", `{"name":"bumpkit","version":"1.2.0","scripts":{"test":"node -r ./pass.js x"}}`, pkg, PackageJSONTestSection, pkg, true},
		{"package.json: a runner's options added", "web/package.json", `{"name":"bumpkit","version":"1.1.0","scripts":{"test":"lolbench-node-test test"},"mocha":{"require":"x"}}`, pkg, PackageJSONTestSection, pkg, true},
		{"package.json: not JSON", "package.json", `{"name":`, pkg, PackageJSONTestSection, pkg, true},
		{"tsconfig: compiler options changed", "tsconfig.json", "{\"compilerOptions\": {\"strict\": false}}", ts, TSConfigTSNodeSection, "{\"compilerOptions\": {\"strict\": false}}", false},
		{"tsconfig: a ts-node preload", "tsconfig.json", "{\"compilerOptions\": {}, \"ts-node\": {\"require\": [\"./src/hook.js\"]}}", ts, TSConfigTSNodeSection, ts, true},
		{"tsconfig: extends another file", "tsconfig.build.json", "{\n  // hidden\n  \"extends\": \"./node_modules/x/tsconfig.json\",\n}", ts, TSConfigTSNodeSection, ts, true},
		{"tsconfig: a comment that hides a key", "tsconfig.json", "{\"a\": \"// not a comment\", /* \"ts-node\": {} */ \"b\": [1, 2,],}", ts, TSConfigTSNodeSection,
			"{\"a\": \"// not a comment\", /* \"ts-node\": {} */ \"b\": [1, 2,],}", false},
		{"tsconfig: a new file with ts-node options", "test/tsconfig.json", "{\"ts-node\": {\"require\": [\"x\"]}}", "", TSConfigTSNodeSection, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, whole := resetSections(tt.file, []byte(tt.cur), []byte(tt.base), []string{tt.section})
			if string(got) != tt.want || whole != tt.whole {
				t.Errorf("got whole=%v\n%s\nwant whole=%v\n%s", whole, got, tt.whole, tt.want)
			}
		})
	}
	var v map[string]any
	src := "{\"a\": [1, 2 , ] , // c\n \"s\": \"x\\\"/*\" /* d */ ,\n}"
	if err := json.Unmarshal(jsonc([]byte(src)), &v); err != nil || !reflect.DeepEqual(v, map[string]any{"a": []any{1.0, 2.0}, "s": "x\"/*"}) {
		t.Errorf("jsonc(%q): %v, %v", src, v, err)
	}
}
