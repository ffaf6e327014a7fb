package server

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"example.com/tinykv/store"
)

// TestPythonClientExpiry runs the Python client against a server on
// localhost: the client's expiry (TKEP-2 §3.5) is only seen across it.
// python3 is part of every environment this repository is tested in, so
// its absence fails the test rather than skipping it.
func TestPythonClientExpiry(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go (&Server{Store: store.New()}).Serve(l)
	script := `import sys
sys.path.insert(0, sys.argv[1])
from tinykv import Client
c = Client(host="localhost", port=int(sys.argv[2]))
c.set("k", "v", ttl=30)
c.set("p", "q")
print(c.ttl("k"), c.ttl("p"), c.ttl("missing"), c.get("k"))
`
	cmd := exec.Command(python, "-c", script, "../clients/python", strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python client: %v\n%s", err, out)
	}
	if got, want := string(out), "30 None None v\n"; got != want {
		t.Errorf("python client printed %q, want %q", got, want)
	}
}
