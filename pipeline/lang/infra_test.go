package lang

import (
	"reflect"
	"testing"
)

func TestTestInfra(t *testing.T) {
	tests := []struct {
		path  string
		extra []string
		want  Infra
	}{
		{"store/store_test.go", nil, Infra{Whole: true}},
		{"store/zz_main_test.go", nil, Infra{Whole: true}},
		{"store/store.go", nil, Infra{}},
		{"testdata/golden.json", nil, Infra{Whole: true}},
		{"vendor/github.com/stretchr/testify/assert/assertions.go", nil, Infra{Whole: true}},
		{"tests/conftest.py", nil, Infra{Whole: true}},
		{"src/pkg/conftest.py", nil, Infra{Whole: true}},
		{"pytest.ini", nil, Infra{Whole: true}},
		{"sitecustomize.py", nil, Infra{Whole: true}},
		{"src/evil.pth", nil, Infra{Whole: true}},
		{"pyproject.toml", nil, Infra{Sections: []string{"tool.pytest"}}},
		{"setup.cfg", nil, Infra{Sections: []string{"tool:pytest"}}},
		{"tox.ini", nil, Infra{Sections: []string{"pytest"}}},
		{"tox.ini", []string{"tox.ini"}, Infra{Whole: true}},
		{"go.mod", nil, Infra{Sections: []string{"replace"}}},
		{"go.work", nil, Infra{Whole: true}},
		{"crates/x/.cargo/config.toml", nil, Infra{Whole: true}},
		{"Cargo.toml", nil, Infra{Sections: []string{"lib", "test", "patch", "replace", "profile", "dev-dependencies", "target"}}},
		{"build.rs", nil, Infra{Whole: true}},
		{"rust-toolchain.toml", nil, Infra{Whole: true}},
		{"src/main.rs", nil, Infra{}},
		{"jest.config.js", nil, Infra{Whole: true}},
		{"gradlew", nil, Infra{Whole: true}},
		{"src/main/java/App.java", nil, Infra{}},
		{"src/test/java/AppTest.java", nil, Infra{Whole: true}},
		{"src/main/resources/META-INF/services/org.junit.platform.launcher.TestExecutionListener", nil, Infra{Whole: true}},
		{"core/src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension", nil, Infra{Whole: true}},
		{"src/main/resources/META-INF/services/java.sql.Driver", nil, Infra{}},
		{"pom.xml", nil, Infra{Sections: []string{"test-plugins"}}},
		{"core/pom.xml", nil, Infra{Sections: []string{"test-plugins"}}},
		{".mvn/extensions.xml", nil, Infra{Whole: true}},
		{".mvn/wrapper/maven-wrapper.properties", nil, Infra{Whole: true}},
		{"src/main/resources/junit-platform.properties", nil, Infra{Whole: true}},
		{"Makefile", nil, Infra{}},
		{"Makefile", []string{"Makefile"}, Infra{Whole: true}},
		{"docs/conf.py", nil, Infra{}},
	}
	for _, tt := range tests {
		if got := TestInfra(tt.path, tt.extra); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("TestInfra(%q, %q) = %+v, want %+v", tt.path, tt.extra, got, tt.want)
		}
	}
}
