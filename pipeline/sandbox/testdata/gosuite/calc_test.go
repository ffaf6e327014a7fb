package gosuite

import (
	"reflect"
	"strings"
	"testing"
)

// s is the suite: its Test* methods run as subtests of Test, named
// without the prefix, as grpctest.RunSubTests names them.
type s struct{}

func Test(t *testing.T) { runSubTests(t, s{}) }

func runSubTests(t *testing.T, x any) {
	v := reflect.ValueOf(x)
	for i := 0; i < v.NumMethod(); i++ {
		name, ok := strings.CutPrefix(v.Type().Method(i).Name, "Test")
		if !ok {
			continue
		}
		m := v.Method(i).Interface().(func(*testing.T))
		t.Run(name, m)
	}
}

func (s) TestAdd_Small(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Fatalf("Add(1, 2) = %d", got)
	}
}

func (s) TestMul_Small(t *testing.T) {
	if got := Mul(2, 3); got != 6 {
		t.Fatalf("Mul(2, 3) = %d", got)
	}
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name    string
		a, b, w int
	}{{"one plus one", 1, 1, 2}, {"zero", 0, 0, 0}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Add(c.a, c.b); got != c.w {
				t.Fatalf("Add(%d, %d) = %d", c.a, c.b, got)
			}
		})
	}
}

// TestReady checks its own condition after its subtest, outside t.Run.
func TestReady(t *testing.T) {
	t.Run("inner", func(t *testing.T) {})
	if !Ready() {
		t.Fatal("not ready")
	}
}
