package lang

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		path string
		want Category
	}{
		// Go
		{"pkg/server/server.go", Source},
		{"pkg/server/server_test.go", Test},
		{"pkg/server/testdata/golden.json", TestData},
		{"pkg/server/testdata/input.go", TestData},
		{"api/v1/types.pb.go", Generated},
		{"pkg/apis/zz_generated.deepcopy.go", Generated},
		{"vendor/github.com/x/y/y.go", Vendor},
		{"vendor/github.com/x/y/y_test.go", Vendor},
		{"go.mod", Build},
		{"go.sum", Generated},
		// Python
		{"Lib/asyncio/tasks.py", Source},
		{"Lib/test/test_asyncio/test_tasks.py", Test},
		{"Lib/test/support/__init__.py", Test},
		{"Lib/test/cfgparser.1", TestData},
		{"tests/data/sample.json", TestData},
		{"src/pkg/module_test.py", Test},
		{"conftest.py", Test},
		{"setup.py", Build},
		{"pyproject.toml", Build},
		{"requirements-dev.txt", Build},
		{"proto/msg_pb2.py", Generated},
		{"poetry.lock", Generated},
		{"Doc/library/asyncio.rst", Documentation},
		{"Misc/NEWS.d/next/Library/2020-01-01.bpo-1.rst", Documentation},
		{"docs/conf.py", Source},
		// Java
		{"src/main/java/org/x/Foo.java", Source},
		{"src/test/java/org/x/FooTest.java", Test},
		{"src/test/java/org/x/Helper.java", Test},
		{"src/test/resources/fixture.xml", TestData},
		{"module/src/main/java/org/x/FooIT.java", Test},
		{"pom.xml", Build},
		{"build.gradle.kts", Build},
		// Rust
		{"compiler/rustc_parse/src/parser/expr.rs", Source},
		{"tests/ui/parser/issue-1.rs", Test},
		{"tests/ui/parser/issue-1.stderr", TestData},
		{"Cargo.toml", Build},
		{"Cargo.lock", Generated},
		{"build.rs", Build},
		// C and C++
		{"Objects/listobject.c", Source},
		{"Include/listobject.h", Source},
		{"src/core/lib.cc", Source},
		{"src/core/lib_test.cc", Test},
		{"src/core/lib_unittest.cpp", Test},
		{"test/core/end2end.cc", Test},
		{"third_party/abseil/str.cc", Vendor},
		{"CMakeLists.txt", Build},
		{"src/CMakeLists.txt", Build},
		{"BUILD.bazel", Build},
		{"Makefile.pre.in", Build},
		// TypeScript and JavaScript
		{"src/compiler/checker.ts", Source},
		{"src/compiler/checker.test.ts", Test},
		{"src/ui/__tests__/button.tsx", Test},
		{"src/ui/__snapshots__/button.tsx.snap", TestData},
		{"lib/index.d.ts", Generated},
		{"dist/app.min.js", Generated},
		{"node_modules/left-pad/index.js", Vendor},
		{"package.json", Build},
		{"package-lock.json", Generated},
		{"web/app.spec.js", Test},
		// C#
		{"src/Foo/Bar.cs", Source},
		{"test/Foo.Tests/BarTests.cs", Test},
		{"src/Foo.Tests/Helper.cs", Test},
		{"src/Foo/Form1.Designer.cs", Generated},
		{"src/Foo/Foo.csproj", Build},
		// Everything else
		{"README.md", Documentation},
		{"docs/design/overview.png", Documentation},
		{"CHANGELOG", Documentation},
		{"LICENSE", Documentation},
		{".github/workflows/ci.yml", Build},
		{"Dockerfile", Build},
		{"config/defaults.yaml", Data},
		{"assets/logo.png", Data},
		{"schema.json", Data},
		{"scripts/release.sh", Source},
		{"tests/run_all.sh", Test},
		{"t/basic.t", Test},
		{"lib/Foo.pm", Source},
		{`windows\path\file.go`, Source},
	}
	for _, tt := range tests {
		if got := Classify(tt.path); got != tt.want {
			t.Errorf("Classify(%q) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

func TestForPath(t *testing.T) {
	tests := map[string]string{
		"a/b.go": "Go", "x.PY": "Python", "A.java": "Java", "lib.rs": "Rust",
		"m.c": "C", "m.h": "C/C++ Header", "m.cpp": "C++", "m.ts": "TypeScript",
		"m.tsx": "TypeScript", "m.js": "JavaScript", "m.cs": "C#", "README": "", "x.json": "",
	}
	for p, want := range tests {
		got := ""
		if l := ForPath(p); l != nil {
			got = l.Name
		}
		if got != want {
			t.Errorf("ForPath(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestTableIsConsistent(t *testing.T) {
	seenName := map[string]bool{}
	seenExt := map[string]string{}
	for _, l := range Table {
		if l.Name == "" || len(l.Extensions) == 0 {
			t.Errorf("entry %+v lacks a name or extensions", l)
		}
		if seenName[l.Name] {
			t.Errorf("language %s listed twice", l.Name)
		}
		seenName[l.Name] = true
		for _, e := range l.Extensions {
			if prev, ok := seenExt[e]; ok {
				t.Errorf("extension %s claimed by %s and %s", e, prev, l.Name)
			}
			seenExt[e] = l.Name
		}
	}
}

func TestParseCategory(t *testing.T) {
	for _, c := range Categories {
		if got, ok := ParseCategory(string(c)); !ok || got != c {
			t.Errorf("ParseCategory(%q) = %q, %v", c, got, ok)
		}
	}
	if _, ok := ParseCategory("sources"); ok {
		t.Error("ParseCategory accepted a word outside the vocabulary")
	}
}
