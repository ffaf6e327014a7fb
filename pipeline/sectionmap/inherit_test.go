package sectionmap

import (
	"reflect"
	"testing"
)

func TestPythonAncestors(t *testing.T) {
	src := `import unittest

class ReadTest(TarTest):
    pass

class MiscReadTestBase(CommonReadTest):
    def test_extract_directory(self): ...

class MiscReadTest(MiscReadTestBase, unittest.TestCase):
    pass

class Bz2MiscReadTest(Bz2Test, MiscReadTestBase,
                      unittest.TestCase):
    pass

class CommonReadTest(ReadTest):
    class Inner(Nested):
        pass

class NoneInfoExtractTests(ReadTest):
    pass

class NoneInfoExtractTests_Data(NoneInfoExtractTests, unittest.TestCase, metaclass=abc.ABCMeta):
    extraction_filter = 'data'

class Plain:
    pass

class Broken(Unclosed,
`
	for _, tc := range []struct {
		class string
		want  []string
	}{
		{"Bz2MiscReadTest", []string{"Bz2Test", "MiscReadTestBase", "TestCase", "CommonReadTest", "ReadTest", "TarTest"}},
		{"NoneInfoExtractTests_Data", []string{"NoneInfoExtractTests", "TestCase", "ReadTest", "TarTest"}},
		{"MiscReadTest", []string{"MiscReadTestBase", "TestCase", "CommonReadTest", "ReadTest", "TarTest"}},
		{"Plain", nil},
		{"Broken", nil},
		{"Nowhere", nil},
		// Nested classes are not top-level classes of the file.
		{"Inner", nil},
	} {
		if got := pythonAncestors(src, tc.class); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("pythonAncestors(%s) = %q, want %q", tc.class, got, tc.want)
		}
	}
}

func TestPythonDefiner(t *testing.T) {
	src := "class Base(TestCase):\n    def test_a(self):\n        def helper():\n            pass\n    # a comment\n\n    async def test_b(self): ...\n\n" +
		"X = 1\n\nclass Sub(Base):\n    def test_b(self): ...\n\nclass Leaf(Sub):\n    pass\n"
	for _, tc := range []struct {
		class, method, want string
		ok                  bool
	}{
		{"Leaf", "test_a", "Base", true},
		{"Leaf", "test_b", "Sub", true},
		{"Sub", "test_b", "Sub", true},
		{"Base", "test_b", "Base", true},
		// A nested function is no method; nor is a module's name.
		{"Leaf", "helper", "", false},
		{"Leaf", "test_c", "", false},
	} {
		got, ok := pythonDefiner(src, tc.class, tc.method)
		if got != tc.want || ok != tc.ok {
			t.Errorf("pythonDefiner(%s, %s) = %q, %v; want %q, %v", tc.class, tc.method, got, ok, tc.want, tc.ok)
		}
	}
}
