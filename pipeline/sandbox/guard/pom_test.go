package guard

import (
	"strings"
	"testing"
)

// TestResetPOM: a POM whose test configuration changed comes back whole;
// one whose other parts changed keeps them.
func TestResetPOM(t *testing.T) {
	base := `<?xml version="1.0"?>
<project>
  <version>1.2.0</version>
  <properties><maven.compiler.release>11</maven.compiler.release></properties>
  <dependencies><dependency><artifactId>junit-jupiter-api</artifactId></dependency></dependencies>
  <build><plugins>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
  </plugins></build>
</project>
`
	edit := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("no %q in the base POM", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	tests := []struct {
		name, cur string
		whole     bool
	}{
		{"untouched", base, false},
		{"version and a dependency", edit("<version>1.2.0</version>", "<version>1.3.0</version>\n  <!-- new -->"), false},
		{"the compiler's configuration", edit("<version>3.10.1</version>", "<version>3.10.1</version><configuration><release>17</release></configuration>"), false},
		{"the same plugin, other blanks", edit("<version>2.22.3</version></plugin>", "\n      <version>2.22.3</version>\n    </plugin>"), false},
		{"testFailureIgnore", edit("<version>2.22.3</version>", "<version>2.22.3</version><configuration><testFailureIgnore>true</testFailureIgnore></configuration>"), true},
		{"an argLine agent", edit("<version>2.22.3</version>", "<version>2.22.3</version><configuration><argLine>-javaagent:x.jar</argLine></configuration>"), true},
		{"a test property", edit("<maven.compiler.release>", "<maven.test.failure.ignore>true</maven.test.failure.ignore><maven.compiler.release>"), true},
		{"argLine as a property", edit("<maven.compiler.release>", "<argLine>-javaagent:x.jar</argLine><maven.compiler.release>"), true},
		{"surefire in a profile", edit("</project>", "<profiles><profile><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><configuration><skipTests>true</skipTests></configuration></plugin></plugins></build></profile></profiles></project>"), true},
		{"failsafe in pluginManagement", edit("<build>", "<build><pluginManagement><plugins><plugin><artifactId>maven-failsafe-plugin</artifactId></plugin></plugins></pluginManagement>"), true},
		{"a build extension", edit("<build>", "<build><extensions><extension><artifactId>spy</artifactId></extension></extensions>"), true},
		{"another test source folder", edit("<build>", "<build><testSourceDirectory>fake</testSourceDirectory>"), true},
		{"surefire removed", edit("<plugin><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>", ""), true},
		{"not XML", "<project><build>", true},
		{"an entity", `<!DOCTYPE p [<!ENTITY e "x">]><project>&e;</project>`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, whole := resetSections("pom.xml", []byte(tt.cur), []byte(base), []string{POMTestSection})
			want := tt.cur
			if tt.whole {
				want = base
			}
			if whole != tt.whole || string(out) != want {
				t.Errorf("whole %v, out\n%s\nwant whole %v", whole, out, tt.whole)
			}
		})
	}
	if _, err := pomTestConfig([]byte(strings.Repeat("<a>", 100) + strings.Repeat("</a>", 100))); err != errDepth {
		t.Errorf("deep POM: %v", err)
	}
}

// FuzzResetPOM: a POM is the solution's to write; whatever it holds, the
// reset returns the current POM untouched or the base POM whole, without
// a panic.
func FuzzResetPOM(f *testing.F) {
	base := []byte(`<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build></project>`)
	f.Add([]byte(`<project><properties><argLine>x</argLine></properties></project>`))
	f.Add(base)
	f.Add([]byte(`<!DOCTYPE p [<!ENTITY e "x">]><project>&e;</project>`))
	f.Fuzz(func(t *testing.T, cur []byte) {
		out, whole := resetPOM(cur, base)
		if whole && string(out) != string(base) || !whole && string(out) != string(cur) {
			t.Fatalf("whole %v, out %q", whole, out)
		}
	})
}
