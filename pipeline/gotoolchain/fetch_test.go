package gotoolchain

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/sumdb/note"
)

// zipEntry is one entry of a fake module zip: a file, or a link when link
// is set.
type zipEntry struct {
	name, body, link string
}

func makeZip(t *testing.T, entries []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		body := e.body
		if e.link != "" {
			h.SetMode(fs.ModeSymlink | 0o777)
			body = e.link
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const fakeVersion = "v0.0.1-go1.22.0.linux-amd64"

// fakeToolchain is laid out as the real module: the GOROOT's files below
// golang.org/toolchain@VERSION/, a _go.mod for the standard library's
// module, no modes.
func fakeToolchain(version string) []zipEntry {
	p := ModulePath + "@" + version + "/"
	return []zipEntry{
		{name: p + "VERSION", body: "go1.22.0\ntime 2024-02-02T18:09:55Z\n"},
		{name: p + "bin/go", body: "#!/bin/sh\necho go version go1.22.0 linux/amd64\n"},
		{name: p + "bin/gofmt", body: "#!/bin/sh\n"},
		{name: p + "lib/wasm/go_js_wasm_exec", body: "#!/bin/sh\n"},
		{name: p + "lib/time/zoneinfo.zip", body: "zip"},
		{name: p + "pkg/tool/linux_amd64/compile", body: "\x7fELF"},
		{name: p + "src/_go.mod", body: "module std\n\ngo 1.22\n"},
		{name: p + "src/fmt/print.go", body: "package fmt\n"},
	}
}

// fakeProxy speaks the GOPROXY protocol for the toolchain module (list,
// .info, .mod and .zip) and is a checksum database too (the go command
// verifies every toolchain against one, GOSUMDB=off or not), whose
// records are the zips' own hashes unless sums overrides them. zips maps
// a module version to its zip; it counts the requests by path.
type fakeProxy struct {
	*httptest.Server
	sumdb *httptest.Server
	vkey  string
	mu    sync.Mutex
	hits  map[string]int
}

const fakeGoMod = "module " + ModulePath + "\n"

func newFakeProxy(t *testing.T, list []string, zips map[string][]byte, sums map[string]string) *fakeProxy {
	t.Helper()
	p := &fakeProxy{hits: map[string]int{}}
	known := func(v string) bool { _, ok := zips[v]; return ok || slices.Contains(list, v) }
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.hits[r.URL.Path]++
		p.mu.Unlock()
		rest, ok := strings.CutPrefix(r.URL.Path, "/"+ModulePath+"/@v/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rest == "list" {
			w.Write([]byte(strings.Join(list, "\n") + "\n"))
			return
		}
		ext := filepath.Ext(rest)
		v := strings.TrimSuffix(rest, ext)
		if !known(v) {
			http.Error(w, "not found: "+rest, http.StatusNotFound)
			return
		}
		switch ext {
		case ".info":
			w.Write([]byte(`{"Version":"` + v + `","Time":"2024-02-02T18:09:55Z"}`))
		case ".mod":
			w.Write([]byte(fakeGoMod))
		case ".zip":
			z, ok := zips[v]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(z)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(p.Close)
	skey, vkey, err := note.GenerateKey(rand.Reader, "sumdb.lolbench.test")
	if err != nil {
		t.Fatal(err)
	}
	p.vkey = vkey
	gosum := func(path, vers string) ([]byte, error) {
		if path != ModulePath || !known(vers) {
			return nil, fmt.Errorf("no such module %s@%s", path, vers)
		}
		modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(fakeGoMod)), nil })
		if err != nil {
			return nil, err
		}
		zipHash := sums[vers]
		if z, ok := zips[vers]; ok && zipHash == "" {
			zp := filepath.Join(t.TempDir(), "h.zip")
			os.WriteFile(zp, z, 0o644)
			if zipHash, err = dirhash.HashZip(zp, dirhash.Hash1); err != nil {
				return nil, err
			}
		}
		var b strings.Builder
		if zipHash != "" {
			fmt.Fprintf(&b, "%s %s %s\n", path, vers, zipHash)
		}
		fmt.Fprintf(&b, "%s %s/go.mod %s\n", path, vers, modHash)
		return []byte(b.String()), nil
	}
	p.sumdb = httptest.NewServer(sumdb.NewServer(sumdb.NewTestServer(skey, gosum)))
	t.Cleanup(p.sumdb.Close)
	return p
}

func (p *fakeProxy) count(path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hits[path]
}

// useProxy points the host's go command at the fake proxy and its
// checksum database, with module cache and GOPATH (where the go command
// keeps the database's latest tree) of the test's own.
func useProxy(t *testing.T, p *fakeProxy) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIPPING: no go command on this host")
	}
	t.Setenv("GOPROXY", p.URL)
	t.Setenv("GOSUMDB", p.vkey+" "+p.sumdb.URL)
	for _, k := range []string{"GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOINSECURE", "GOFLAGS"} {
		t.Setenv(k, "")
	}
	tmp := t.TempDir()
	t.Setenv("GOPATH", filepath.Join(tmp, "gopath"))
	t.Setenv("GOMODCACHE", filepath.Join(tmp, "hostcache"))
	t.Cleanup(func() { removeAll(tmp) })
}

// TestProxyVersions: the list comes from the proxy's @v/list, through the
// host's go command and its GOPROXY.
func TestProxyVersions(t *testing.T) {
	p := newFakeProxy(t, []string{"v0.0.1-go1.17.13.linux-amd64", "v0.0.1-go1.17.6.linux-amd64", fakeVersion}, nil, nil)
	useProxy(t, p)
	got, err := GoProxy{}.Versions(context.Background())
	want := []string{"v0.0.1-go1.17.6.linux-amd64", "v0.0.1-go1.17.13.linux-amd64", fakeVersion}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	v, note, err := Resolve(context.Background(), Request{Version: "1.17", Source: "go.mod:3 (go 1.17)"}, "amd64", GoProxy{})
	if err != nil || v != "1.17.13" || !strings.HasSuffix(note, "using go1.17.13, the newest 1.17 release the Go module proxy lists for linux/amd64") {
		t.Fatalf("Resolve: %q %q %v", v, note, err)
	}
	if p.count("/golang.org/toolchain/@v/list") != 2 {
		t.Fatalf("list fetched %d times, want 2", p.count("/golang.org/toolchain/@v/list"))
	}
}

// TestFetcherGet: the toolchain is downloaded through the proxy, unpacked
// into the cache with its commands executable and go.mod beside _go.mod,
// said in two status lines; a second Get takes it from the cache without
// asking the proxy.
func TestFetcherGet(t *testing.T) {
	p := newFakeProxy(t, []string{fakeVersion}, map[string][]byte{fakeVersion: makeZip(t, fakeToolchain(fakeVersion))}, nil)
	useProxy(t, p)
	root := filepath.Join(t.TempDir(), "cache")
	var status, log bytes.Buffer
	f := &Fetcher{Root: root, Status: &status, Log: &log}
	tc, err := f.Get(context.Background(), "1.22.0", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "go1.22.0.linux-amd64")
	if tc.GOROOT != filepath.Join(dir, "go") || tc.Version != "1.22.0" || tc.Arch != "amd64" || !strings.HasPrefix(tc.Sum, "h1:") || tc.Bytes != 141 {
		t.Fatalf("toolchain %+v", tc)
	}
	var files []string
	filepath.WalkDir(tc.GOROOT, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, _ := d.Info()
		rel, _ := filepath.Rel(tc.GOROOT, p)
		files = append(files, rel+" "+fi.Mode().String())
		return nil
	})
	want := []string{"VERSION -rw-r--r--", "bin/go -rwxr-xr-x", "bin/gofmt -rwxr-xr-x", "lib/time/zoneinfo.zip -rw-r--r--",
		"lib/wasm/go_js_wasm_exec -rwxr-xr-x", "pkg/tool/linux_amd64/compile -rwxr-xr-x", "src/_go.mod -rw-r--r--",
		"src/fmt/print.go -rw-r--r--", "src/go.mod -rw-r--r--"}
	if !slices.Equal(files, want) {
		t.Fatalf("unpacked\n%s\nwant\n%s", strings.Join(files, "\n"), strings.Join(want, "\n"))
	}
	if data, _ := os.ReadFile(filepath.Join(tc.GOROOT, "src", "go.mod")); string(data) != "module std\n\ngo 1.22\n" {
		t.Fatalf("src/go.mod %q", data)
	}
	out, err := exec.Command(filepath.Join(tc.GOROOT, "bin", "go")).Output()
	if err != nil || string(out) != "go version go1.22.0 linux/amd64\n" {
		t.Fatalf("bin/go: %q %v", out, err)
	}
	// Nothing is left of the download but the toolchain.
	if ents, _ := os.ReadDir(root); len(ents) != 1 || ents[0].Name() != "go1.22.0.linux-amd64" {
		t.Fatalf("cache holds %v", ents)
	}
	lines := strings.Split(strings.TrimSpace(regexp.MustCompile(`in [0-9.]+ s`).ReplaceAllString(status.String(), "in T s")), "\n")
	wantStatus := []string{
		"go toolchain: downloading go1.22.0 for linux/amd64 (golang.org/toolchain@v0.0.1-go1.22.0.linux-amd64) through GOPROXY=" + p.URL,
		"go toolchain: go1.22.0 for linux/amd64: 0.0 MiB zip (" + tc.Sum + "), 0.0 MiB unpacked into " + dir + " in T s",
	}
	if !slices.Equal(lines, wantStatus) {
		t.Fatalf("status\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(wantStatus, "\n"))
	}
	if !strings.Contains(log.String(), "go mod download -json golang.org/toolchain@v0.0.1-go1.22.0.linux-amd64\n") {
		t.Fatalf("log:\n%s", log.String())
	}
	zipPath := "/golang.org/toolchain/@v/" + fakeVersion + ".zip"
	if p.count(zipPath) != 1 {
		t.Fatalf("zip fetched %d times", p.count(zipPath))
	}
	status.Reset()
	again, err := f.Get(context.Background(), "1.22.0", "amd64")
	if err != nil || again.GOROOT != tc.GOROOT || again.Sum != tc.Sum || p.count(zipPath) != 1 || status.Len() != 0 {
		t.Fatalf("second Get: %+v %v, zip fetched %d times, status %q", again, err, p.count(zipPath), status.String())
	}
}

// TestFetcherGetMissing: a release the proxy does not have fails with the
// go command's message and the next step; the cache stays empty.
func TestFetcherGetMissing(t *testing.T) {
	p := newFakeProxy(t, nil, nil, nil)
	useProxy(t, p)
	root := t.TempDir()
	_, err := (&Fetcher{Root: root}).Get(context.Background(), "1.22.99", "amd64")
	if err == nil || !strings.HasPrefix(err.Error(), "go toolchain: go1.22.99 for linux/amd64: go mod download golang.org/toolchain@v0.0.1-go1.22.99.linux-amd64: ") ||
		!strings.Contains(err.Error(), "404 Not Found") || !strings.HasSuffix(err.Error(), "(set go: in the recipe to a release the proxy has, or go: system)") {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("cache holds %v", ents)
	}
	if _, err := (&Fetcher{Root: root}).Get(context.Background(), "1.22.0; rm -rf /", "amd64"); err == nil || err.Error() != `go toolchain: "1.22.0; rm -rf /" is not a Go release` {
		t.Fatalf("err = %v", err)
	}
}

// TestFetcherGetHostile: a zip the go command accepts but that is no
// toolchain (no bin/go) is refused by Unpack, and nothing reaches the
// cache.
func TestFetcherGetHostile(t *testing.T) {
	p := newFakeProxy(t, nil, map[string][]byte{fakeVersion: makeZip(t, []zipEntry{{name: ModulePath + "@" + fakeVersion + "/README", body: "x"}})}, nil)
	useProxy(t, p)
	root := t.TempDir()
	_, err := (&Fetcher{Root: root}).Get(context.Background(), "1.22.0", "amd64")
	if err == nil || !strings.HasPrefix(err.Error(), "go toolchain: go1.22.0: ") || !strings.HasSuffix(err.Error(), ": no golang.org/toolchain@"+fakeVersion+"/bin/go: not a Go toolchain") {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("cache holds %v", ents)
	}
}

// TestUnpackHostile: entries that leave the folder, links, special
// names, duplicates and files past the limits are refused, each naming
// the entry, before anything is written.
func TestUnpackHostile(t *testing.T) {
	p := ModulePath + "@" + fakeVersion
	good := fakeToolchain(fakeVersion)
	small := Limits{FileBytes: 100, TotalBytes: 300, Files: 20}
	tests := []struct {
		name    string
		entries []zipEntry
		lim     Limits
		want    string
	}{
		{"dot-dot", append(good, zipEntry{name: p + "/../../etc/passwd", body: "x"}), small, `entry "` + p + `/../../etc/passwd" is not a clean relative path inside the toolchain`},
		{"dot-dot inside", append(good, zipEntry{name: p + "/src/../../x", body: "x"}), small, `entry "` + p + `/src/../../x" is not a clean relative path inside the toolchain`},
		{"absolute", append(good, zipEntry{name: "/etc/passwd", body: "x"}), small, `entry "/etc/passwd" is outside ` + p + `/`},
		{"other module", append(good, zipEntry{name: ModulePath + "@v0.0.1-go1.21.0.linux-amd64/bin/go", body: "x"}), small,
			`entry "` + ModulePath + `@v0.0.1-go1.21.0.linux-amd64/bin/go" is outside ` + p + `/`},
		{"backslash", append(good, zipEntry{name: p + `/bin\..\..\x`, body: "x"}), small, `entry ` + strconv.Quote(p+`/bin\..\..\x`) + ` is not a clean relative path inside the toolchain`},
		{"symlink", append(good, zipEntry{name: p + "/bin/evil", link: "/etc/passwd"}), small, `entry "` + p + `/bin/evil" is a symbolic link; a toolchain has only files`},
		{"twice", append(good, zipEntry{name: p + "/bin/go", body: "again"}), small, `entry "` + p + `/bin/go" appears twice`},
		{"huge file", append(good, zipEntry{name: p + "/pkg/big.a", body: strings.Repeat("x", 101)}), small, `entry "` + p + `/pkg/big.a" is 101 bytes, more than the 100 one file may have`},
		{"huge total", append(good, zipEntry{name: p + "/a", body: strings.Repeat("x", 90)}, zipEntry{name: p + "/b", body: strings.Repeat("x", 90)}), small,
			`entry "` + p + `/b" brings the toolchain past 300 bytes`},
		{"too many", good, Limits{FileBytes: 100, TotalBytes: 200, Files: 3}, `8 entries, more than the 3 a toolchain may have`},
		{"no go", good[2:], small, `no ` + p + `/bin/go: not a Go toolchain`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zp := filepath.Join(t.TempDir(), "m.zip")
			if err := os.WriteFile(zp, makeZip(t, tt.entries), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "go")
			_, err := Unpack(zp, p, dir, tt.lim)
			if err == nil || err.Error() != zp+": "+tt.want {
				t.Fatalf("err = %v\nwant %s: %s", err, zp, tt.want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("%s was made: %v", dir, err)
			}
		})
	}
}

// TestUnpackLyingSize: a file longer than its declared size is cut at the
// limit, and refused.
func TestUnpackLyingSize(t *testing.T) {
	p := ModulePath + "@" + fakeVersion
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range fakeToolchain(fakeVersion) {
		w, _ := zw.Create(e.name)
		w.Write([]byte(e.body))
	}
	// Stored, with a declared size of 10 and 200 bytes of data: the zip
	// reader believes the header until the data runs past it.
	h := &zip.FileHeader{Name: p + "/pkg/liar.a", Method: zip.Store, UncompressedSize64: 10, CompressedSize64: 200}
	w, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("x"), 200))
	zw.Close()
	zp := filepath.Join(t.TempDir(), "m.zip")
	os.WriteFile(zp, buf.Bytes(), 0o644)
	_, err = Unpack(zp, p, filepath.Join(t.TempDir(), "go"), Limits{FileBytes: 100, TotalBytes: 1000, Files: 20})
	if err == nil || !strings.HasPrefix(err.Error(), zp+`: entry "`+p+`/pkg/liar.a": `) {
		t.Fatalf("err = %v", err)
	}
}

// TestFetcherGetChecksumMismatch: a zip that is not the one the checksum
// database records is refused by the go command, and nothing reaches the
// cache.
func TestFetcherGetChecksumMismatch(t *testing.T) {
	p := newFakeProxy(t, nil, map[string][]byte{fakeVersion: makeZip(t, fakeToolchain(fakeVersion))},
		map[string]string{fakeVersion: "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="})
	useProxy(t, p)
	root := t.TempDir()
	_, err := (&Fetcher{Root: root}).Get(context.Background(), "1.22.0", "amd64")
	if err == nil || !strings.HasPrefix(err.Error(), "go toolchain: go1.22.0 for linux/amd64: go mod download golang.org/toolchain@"+fakeVersion+": ") ||
		!strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("cache holds %v", ents)
	}
}
