package guard

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// javaTestFile reports whether a base name is a test class Surefire runs
// by default (**/Test*.java, **/*Test.java, **/*Tests.java,
// **/*TestCase.java).
func javaTestFile(n string) bool {
	if !strings.HasSuffix(n, ".java") {
		return false
	}
	s := strings.TrimSuffix(n, ".java")
	return strings.HasPrefix(s, "Test") || strings.HasSuffix(s, "Test") || strings.HasSuffix(s, "Tests") || strings.HasSuffix(s, "TestCase")
}

// javaTestDir reports whether a folder lies in a Maven or Gradle test
// source root (src/test/java, at any depth of a multi-module build): test
// files elsewhere are compiled as main code and never run as tests.
func javaTestDir(dir string) bool {
	d := "/" + dir + "/"
	return strings.Contains(d, "/src/test/java/")
}

var javaPackageRE = regexp.MustCompile(`^\s*package\s+([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*;`)

// javaFolderStyle reads the package of a folder's test classes and whether
// they use JUnit 4 (org.junit.Test) rather than JUnit 5, from the first
// test file that says so.
func javaFolderStyle(top, dir string) (pkg string, junit4 bool, err error) {
	ents, err := os.ReadDir(filepath.Join(top, filepath.FromSlash(dir)))
	if err != nil {
		return "", false, err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !javaTestFile(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(dir), e.Name()))
		if err != nil || len(data) > 4<<20 {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if m := javaPackageRE.FindStringSubmatch(sc.Text()); m != nil && pkg == "" {
				pkg = strings.Join(strings.Fields(m[1]), "")
			}
		}
		junit4 = !bytes.Contains(data, []byte("org.junit.jupiter")) && bytes.Contains(data, []byte("org.junit."))
		return pkg, junit4, nil
	}
	return "", false, nil
}

// javaCanaries plants one canary class in a folder of a test source root,
// in the package of the folder's test classes, written for the JUnit its
// neighbours use: Surefire runs it with them.
func javaCanaries(top, dir string) ([]plantedCanary, error) {
	if !javaTestDir(dir) {
		return nil, nil
	}
	pkg, junit4, err := javaFolderStyle(top, dir)
	if err != nil {
		return nil, err
	}
	class := exported(word(2)) + "Test"
	method := word(3)
	a, b := twoNumbers()
	var src strings.Builder
	if pkg != "" {
		fmt.Fprintf(&src, "package %s;\n\n", pkg)
	}
	if junit4 {
		fmt.Fprintf(&src, "public class %s {\n    @org.junit.Test\n    public void %s() {\n        org.junit.Assert.assertEquals(%d, %d);\n    }\n}\n", class, method, a, b)
	} else {
		fmt.Fprintf(&src, "class %s {\n    @org.junit.jupiter.api.Test\n    void %s() {\n        org.junit.jupiter.api.Assertions.assertEquals(%d, %d);\n    }\n}\n", class, method, a, b)
	}
	return []plantedCanary{{Canary: grade.Canary{Dir: dir, File: path.Join(dir, class+".java"), Name: method}, source: []byte(src.String())}}, nil
}
