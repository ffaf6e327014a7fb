package gotoolchain

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// CacheEnv overrides the cache folder of unpacked toolchains.
const CacheEnv = "LOLBENCH_GO_CACHE"

// DefaultCache is where unpacked toolchains are kept on the host:
// $LOLBENCH_GO_CACHE, else lolbench/go in the user's cache folder
// (~/.cache/lolbench/go on Linux).
func DefaultCache() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for Go toolchains: %w (set %s)", err, CacheEnv)
	}
	return filepath.Join(d, "lolbench", "go"), nil
}

// HostArch is the architecture of the toolchains lolbench fetches: the
// host's, which is the local Docker engine's.
func HostArch() string { return runtime.GOARCH }

// GoProxy reaches the Go module proxy through the host's go command, in an
// empty folder outside any module: the host's GOPROXY, GOSUMDB, GONOSUMDB,
// GOPRIVATE, GOINSECURE, GOFLAGS and .netrc apply as they do to go mod
// download. Only GOMODCACHE is a temporary one, so that the host's module
// cache does not keep a second copy of every toolchain, and GOTOOLCHAIN is
// local, so that the host's go never switches to another.
type GoProxy struct {
	// Go is the go command; "go" when empty.
	Go string
	// Log receives the commands and their output.
	Log io.Writer
}

func (p GoProxy) command() string {
	if p.Go == "" {
		return "go"
	}
	return p.Go
}

// run runs the go command in dir with the host's environment and env
// after it; it returns stdout, and an error with go's last line on
// stderr.
func (p GoProxy) run(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	if _, err := exec.LookPath(p.command()); err != nil {
		return nil, fmt.Errorf("there is no go command on this host to download Go toolchains with (%v): install Go, or set go: %s in the recipe", err, System)
	}
	cmd := exec.CommandContext(ctx, p.command(), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if p.Log != nil {
		fmt.Fprintf(p.Log, "$ %s %s %s\n", strings.Join(env, " "), p.command(), strings.Join(args, " "))
		cmd.Stderr = io.MultiWriter(&errb, p.Log)
	}
	if err := cmd.Run(); err != nil {
		// go mod download -json reports a module's error in its JSON.
		return out.Bytes(), fmt.Errorf("%s %s: %v: %s", p.command(), strings.Join(args, " "), err, lastLine(errb.String()))
	}
	return out.Bytes(), nil
}

// env is what every run sets: GOFLAGS keeps the host's, then -mod=mod (a
// host GOFLAGS of -mod=vendor stops go list -m outside a module) and
// -modcacherw (so that the temporary module cache can be removed).
func (p GoProxy) env(ctx context.Context, dir string) []string {
	flags := strings.TrimSpace(p.goEnv(ctx, dir, "GOFLAGS") + " -mod=mod -modcacherw")
	return []string{"GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=" + flags}
}

func (p GoProxy) goEnv(ctx context.Context, dir, name string) string {
	cmd := exec.CommandContext(ctx, p.command(), "env", name)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Describe names the proxy as the host's go command sees it, for status
// lines: "GOPROXY=https://proxy.golang.org,direct".
func (p GoProxy) Describe(ctx context.Context) string {
	dir, err := os.MkdirTemp("", "lolbench-goenv-")
	if err != nil {
		return "GOPROXY=?"
	}
	defer os.RemoveAll(dir)
	return "GOPROXY=" + p.goEnv(ctx, dir, "GOPROXY")
}

// Versions implements Lister: go list -m -versions of the toolchain
// module, which reads the proxy's list.
func (p GoProxy) Versions(ctx context.Context) ([]string, error) {
	dir, err := os.MkdirTemp("", "lolbench-golist-")
	if err != nil {
		return nil, err
	}
	defer removeAll(dir)
	env := append(p.env(ctx, dir), "GOMODCACHE="+filepath.Join(dir, "modcache"))
	out, err := p.run(ctx, dir, env, "list", "-m", "-versions", "-json", ModulePath)
	if err != nil {
		return nil, err
	}
	var m struct{ Versions []string }
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("go list -m -versions %s: %w", ModulePath, err)
	}
	return m.Versions, nil
}

// Module is a downloaded module version: its zip and the checksum the go
// command verified it against.
type Module struct {
	Version string
	Zip     string
	Sum     string
}

// download runs go mod download -json for the toolchain module's version
// with a module cache in dir; the go command checks the zip against the
// checksum database (GOSUMDB) unless the host's configuration says not to.
func (p GoProxy) download(ctx context.Context, dir, version string) (Module, error) {
	env := append(p.env(ctx, dir), "GOMODCACHE="+filepath.Join(dir, "modcache"))
	out, err := p.run(ctx, dir, env, "mod", "download", "-json", ModulePath+"@"+version)
	var m struct {
		Version, Zip, Sum, Error string
	}
	jerr := json.Unmarshal(out, &m)
	switch {
	case m.Error != "":
		return Module{}, fmt.Errorf("go mod download %s@%s: %s", ModulePath, version, m.Error)
	case err != nil:
		return Module{}, err
	case jerr != nil:
		return Module{}, fmt.Errorf("go mod download %s@%s: %w", ModulePath, version, jerr)
	}
	if m.Zip == "" {
		return Module{}, fmt.Errorf("go mod download %s@%s named no zip", ModulePath, version)
	}
	return Module{Version: m.Version, Zip: m.Zip, Sum: m.Sum}, nil
}

// Toolchain is an unpacked toolchain on the host.
type Toolchain struct {
	// Version is the release ("1.22.0"), Arch its architecture.
	Version string `json:"version"`
	Arch    string `json:"arch"`
	// Sum is the module's checksum (h1:...), as go mod download verified it.
	Sum string `json:"sum"`
	// ZipBytes and Bytes are the module zip's size and the unpacked files'.
	ZipBytes int64 `json:"zip_bytes"`
	Bytes    int64 `json:"bytes"`
	// GOROOT is the folder whose bin/go is the go command; not recorded.
	GOROOT string `json:"-"`
}

// Fetcher brings toolchains into a cache on the host: Root/go<version>.linux-<arch>/
// holds go/ (the GOROOT) and toolchain.json, and appears at once, by a
// rename, once complete, so that a second build downloads nothing and a
// killed one leaves no half toolchain.
type Fetcher struct {
	// Root is the cache folder (DefaultCache).
	Root string
	// Proxy downloads the module.
	Proxy GoProxy
	// Status receives one line when a download starts and one when it
	// ends (what, from where, the size); Log the details.
	Status, Log io.Writer
	// Limits caps the zip's contents; zero means DefaultLimits.
	Limits Limits
}

// Dir is the cache folder of a release for linux/arch.
func (f *Fetcher) Dir(version, arch string) string {
	return filepath.Join(f.Root, "go"+version+".linux-"+arch)
}

// Cached returns the toolchain when the cache has it, else nil.
func (f *Fetcher) Cached(version, arch string) *Toolchain {
	dir := f.Dir(version, arch)
	data, err := os.ReadFile(filepath.Join(dir, "toolchain.json"))
	if err != nil {
		return nil
	}
	var t Toolchain
	if json.Unmarshal(data, &t) != nil || t.Version != version || t.Arch != arch {
		return nil
	}
	t.GOROOT = filepath.Join(dir, "go")
	if fi, err := os.Stat(filepath.Join(t.GOROOT, "bin", "go")); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return &t
}

// Get returns the toolchain of a release for linux/arch from the cache,
// downloading and unpacking it first when it is not there.
func (f *Fetcher) Get(ctx context.Context, version, arch string) (*Toolchain, error) {
	if !releaseRE.MatchString(version) {
		return nil, fmt.Errorf("go toolchain: %q is not a Go release", version)
	}
	if t := f.Cached(version, arch); t != nil {
		f.logf("go toolchain: go%s for linux/%s from the cache %s", version, arch, f.Dir(version, arch))
		return t, nil
	}
	if err := os.MkdirAll(f.Root, 0o755); err != nil {
		return nil, fmt.Errorf("go toolchain: cache folder: %w", err)
	}
	tmp, err := os.MkdirTemp(f.Root, ".fetch-")
	if err != nil {
		return nil, fmt.Errorf("go toolchain: cache folder: %w", err)
	}
	defer removeAll(tmp)
	mv := ModuleVersion(version, arch)
	start := time.Now()
	px := f.Proxy
	if px.Log == nil {
		px.Log = f.Log
	}
	f.status(fmt.Sprintf("go toolchain: downloading go%s for linux/%s (%s@%s) through %s", version, arch, ModulePath, mv, px.Describe(ctx)))
	m, err := px.download(ctx, tmp, mv)
	if err != nil {
		return nil, fmt.Errorf("go toolchain: go%s for linux/%s: %w (set go: in the recipe to a release the proxy has, or go: %s)", version, arch, err, System)
	}
	zi, err := os.Stat(m.Zip)
	if err != nil {
		return nil, fmt.Errorf("go toolchain: %w", err)
	}
	out := filepath.Join(tmp, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		return nil, fmt.Errorf("go toolchain: %w", err)
	}
	n, err := Unpack(m.Zip, ModulePath+"@"+mv, filepath.Join(out, "go"), f.Limits)
	if err != nil {
		return nil, fmt.Errorf("go toolchain: go%s: %w", version, err)
	}
	t := &Toolchain{Version: version, Arch: arch, Sum: m.Sum, ZipBytes: zi.Size(), Bytes: n}
	data, _ := json.MarshalIndent(t, "", "  ")
	if err := os.WriteFile(filepath.Join(out, "toolchain.json"), append(data, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("go toolchain: %w", err)
	}
	dir := f.Dir(version, arch)
	if err := os.Rename(out, dir); err != nil {
		// Another process put it there first: use that one.
		if c := f.Cached(version, arch); c != nil {
			return c, nil
		}
		return nil, fmt.Errorf("go toolchain: %w", err)
	}
	t.GOROOT = filepath.Join(dir, "go")
	f.status(fmt.Sprintf("go toolchain: go%s for linux/%s: %s zip (%s), %s unpacked into %s in %.1f s",
		version, arch, mib(t.ZipBytes), t.Sum, mib(t.Bytes), dir, time.Since(start).Seconds()))
	return t, nil
}

func (f *Fetcher) status(line string) {
	if f.Status != nil {
		fmt.Fprintln(f.Status, line)
	}
	f.logf("%s", line)
}

func (f *Fetcher) logf(format string, args ...any) {
	if f.Log != nil {
		fmt.Fprintf(f.Log, format+"\n", args...)
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Limits cap what Unpack writes: a module zip is hostile input until
// unpacked (the checksum database vouches for the proxy's copy, not for
// what the module holds).
type Limits struct {
	// FileBytes caps one file, TotalBytes all of them, Files their number.
	FileBytes, TotalBytes int64
	Files                 int
}

// DefaultLimits are far above a real toolchain (go1.22.0: 9,537 files,
// 197 MiB, the largest 18.5 MiB).
var DefaultLimits = Limits{FileBytes: 256 << 20, TotalBytes: 2 << 30, Files: 100_000}

// Unpack writes the files of a toolchain module zip below prefix (the
// module's "golang.org/toolchain@v0.0.1-go1.22.0.linux-amd64") into dir,
// which must not exist, and returns the bytes written. It refuses, naming
// the entry, any entry outside prefix, a path that is not clean or leaves
// dir, a symbolic link or other special file, a name given twice, and a
// file or a total past the limits. As the go command does when it switches
// toolchains, it makes the commands executable (bin/, pkg/tool/ and
// lib's go_*_*_exec, since a module zip keeps no modes) and copies each
// _go.mod to go.mod beside it (the module renames them so that the
// standard library's modules stay inside the toolchain's).
func Unpack(zipPath, prefix, dir string, lim Limits) (int64, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", zipPath, err)
	}
	defer zr.Close()
	if len(zr.File) > lim.Files {
		return 0, fmt.Errorf("%s: %d entries, more than the %d a toolchain may have", zipPath, len(zr.File), lim.Files)
	}
	// Every entry is checked before anything is written.
	type entry struct {
		f   *zip.File
		rel string
	}
	var files []entry
	seen := map[string]bool{}
	var declared uint64
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix+"/")
		if !ok {
			return 0, fmt.Errorf("%s: entry %q is outside %s/", zipPath, f.Name, prefix)
		}
		isDir := strings.HasSuffix(rel, "/")
		rel = strings.TrimSuffix(rel, "/")
		if rel == "" && isDir {
			continue
		}
		if !fs.ValidPath(rel) || strings.Contains(rel, `\`) || path.Clean(rel) != rel {
			return 0, fmt.Errorf("%s: entry %q is not a clean relative path inside the toolchain", zipPath, f.Name)
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return 0, fmt.Errorf("%s: entry %q is a symbolic link; a toolchain has only files", zipPath, f.Name)
		case isDir || mode.IsDir():
			continue
		case !mode.IsRegular():
			return 0, fmt.Errorf("%s: entry %q is not a regular file (%s)", zipPath, f.Name, mode.Type())
		}
		if seen[rel] {
			return 0, fmt.Errorf("%s: entry %q appears twice", zipPath, f.Name)
		}
		seen[rel] = true
		if f.UncompressedSize64 > uint64(lim.FileBytes) {
			return 0, fmt.Errorf("%s: entry %q is %d bytes, more than the %d one file may have", zipPath, f.Name, f.UncompressedSize64, lim.FileBytes)
		}
		if declared += f.UncompressedSize64; declared > uint64(lim.TotalBytes) {
			return 0, fmt.Errorf("%s: entry %q brings the toolchain past %d bytes", zipPath, f.Name, lim.TotalBytes)
		}
		files = append(files, entry{f, rel})
	}
	if !seen["bin/go"] {
		return 0, fmt.Errorf("%s: no %s/bin/go: not a Go toolchain", zipPath, prefix)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return 0, err
	}
	var total int64
	for _, e := range files {
		mode := os.FileMode(0o644)
		if executable(e.rel) {
			mode = 0o755
		}
		n, err := writeEntry(e.f, filepath.Join(dir, filepath.FromSlash(e.rel)), mode, lim.FileBytes)
		if err != nil {
			return 0, fmt.Errorf("%s: entry %q: %w", zipPath, e.f.Name, err)
		}
		if total += n; total > lim.TotalBytes {
			return 0, fmt.Errorf("%s: entry %q brings the toolchain past %d bytes", zipPath, e.f.Name, lim.TotalBytes)
		}
		if path.Base(e.rel) == "_go.mod" {
			gm := path.Join(path.Dir(e.rel), "go.mod")
			if seen[gm] {
				continue
			}
			if _, err := writeEntry(e.f, filepath.Join(dir, filepath.FromSlash(gm)), 0o644, lim.FileBytes); err != nil {
				return 0, fmt.Errorf("%s: entry %q: %w", zipPath, e.f.Name, err)
			}
		}
	}
	return total, nil
}

// executable reports whether a toolchain file is a command: what the go
// command marks executable after it downloads a toolchain.
func executable(rel string) bool {
	if strings.HasPrefix(rel, "bin/") || strings.HasPrefix(rel, "pkg/tool/") {
		return true
	}
	ok, _ := path.Match("go_?*_?*_exec", path.Base(rel))
	return ok && strings.HasPrefix(rel, "lib/")
}

// writeEntry writes one zip entry to a new file, at most max bytes (the
// sizes a zip declares may lie); the parents are made as plain folders.
func writeEntry(f *zip.File, dst string, mode os.FileMode, max int64) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, err
	}
	rc, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, io.LimitReader(rc, max+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > max {
		err = fmt.Errorf("more than the %d bytes one file may have", max)
	}
	return n, err
}

// removeAll removes a folder whose module cache the go command made
// read-only.
func removeAll(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	os.RemoveAll(dir)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// errNoGo is returned by HostVersion when the host has no go command.
var errNoGo = errors.New("no go command on this host")

// HostVersion is the host's go version ("1.26.8"), as go env GOVERSION
// prints it without "go".
func HostVersion(ctx context.Context) (string, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return "", errNoGo
	}
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off")
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "go")
	// A development build says "devel go1.27-abc..."; a suffix such as
	// "1.26.8 X:nocoverageredesign" is cut.
	v, _, _ = strings.Cut(v, " ")
	return v, nil
}
