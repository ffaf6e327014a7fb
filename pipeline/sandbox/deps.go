package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/lolbench/lolbench/pipeline/gotoolchain"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// GoModCache is layer 2's Go module cache (GOMODCACHE), filled on the host.
const GoModCache = "/opt/lolbench-deps/gomod"

// depsRoot is where the build context's deps/ folder lands: its recipe/
// is recipe.FilesDir and its gomod/ GoModCache. It is root's and readable
// by all, unlike guard.PristineDir (/opt/lolbench), which is root's alone.
const depsRoot = "/opt/lolbench-deps"

// Deps is what layer 2 brings from the host, since containers have no
// network (issue 13 §2): the recipe's files, requirement files and wheels
// folder, and a Go module cache that go mod download filled on the host
// through its GOPROXY. PrepareDeps makes it; Close removes its temporary
// folder.
type Deps struct {
	r     recipe.Recipe
	files []recipe.HostFile
	// goMod is set when the repository's go.mod requires modules that are
	// downloaded (recipe.GoModules).
	goMod bool
	// goCache is the downloaded module cache, once fetched.
	goCache string
	// goRoot is the recipe's Go toolchain in the host's cache (its
	// GOROOT), once fetched; layer 1 copies it (issue 31 §1).
	goRoot string
	tmp    string
	key    string
}

// GoRoot is the recipe's Go toolchain on the host, "" when the recipe
// keeps the image's Go.
func (d *Deps) GoRoot() string {
	if d == nil {
		return ""
	}
	return d.goRoot
}

// layout is what the Dockerfile needs to know of the dependencies; it does
// not depend on the files' contents, only on the recipe and the tree.
type layout struct {
	copyDeps     bool
	goMod        bool
	wheels       string
	requirements []string
	mavenRepo    string
}

func recipeLayout(r recipe.Recipe, goMod bool) layout {
	return layout{
		copyDeps:     goMod || r.HostPaths(),
		goMod:        goMod,
		wheels:       r.Wheels,
		requirements: r.Requirements,
		mavenRepo:    r.MavenRepo,
	}
}

func (d *Deps) layout() layout {
	if d == nil {
		return layout{}
	}
	return recipeLayout(d.r, d.goMod)
}

// Key hashes the files' paths and contents and whether Go modules are
// downloaded ("" when there is nothing): layer 2's name includes it, so a
// changed wheel or file builds a new environment. The module cache needs
// no hash of its own: the tree's key covers go.mod and go.sum, and the
// checksums in go.sum fix what is downloaded.
func (d *Deps) Key() string {
	if d == nil {
		return ""
	}
	return d.key
}

// Close removes the downloaded module cache.
func (d *Deps) Close() error {
	if d == nil || d.tmp == "" {
		return nil
	}
	err := os.RemoveAll(d.tmp)
	d.tmp, d.goCache = "", ""
	return err
}

// planDeps lists what the recipe brings from the host and decides whether
// Go modules are downloaded, without downloading anything: it is cheap
// enough to name layer 2 on every Prepare.
func planDeps(r recipe.Recipe, tree Tree) (*Deps, error) {
	d := &Deps{r: r}
	files, err := r.HostFiles()
	if err != nil {
		return nil, fmt.Errorf("recipe: %w", err)
	}
	d.files = files
	if d.goMod, err = wantsGoModules(r, tree); err != nil {
		return nil, err
	}
	if len(files) == 0 && !d.goMod {
		return d, nil
	}
	fk, err := r.HostFilesKey(files)
	if err != nil {
		return nil, fmt.Errorf("recipe: %w", err)
	}
	d.key = hash12(fmt.Sprintf("files %s\ngo modules %v\n", fk, d.goMod))
	return d, nil
}

// wantsGoModules reads the tree's go.mod: modules are downloaded when it
// requires any, the recipe leaves go_modules on auto and the project does
// not vendor them (vendor/modules.txt).
func wantsGoModules(r recipe.Recipe, tree Tree) (bool, error) {
	if r.GoModules == recipe.GoModulesOff || tree == nil {
		return false, nil
	}
	data, err := tree.ReadFile("go.mod")
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("go.mod: %w", err)
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return false, fmt.Errorf("go.mod of the base tree: %w (set go_modules: off in the recipe to leave modules alone)", err)
	}
	if len(f.Require) == 0 {
		return false, nil
	}
	if _, err := tree.ReadFile("vendor/modules.txt"); err == nil {
		return false, nil
	}
	return true, nil
}

// PrepareDeps makes what the recipe brings from the host for a tree: it
// fills the wheels folder when pip can reach an index and the folder lacks
// a requirement (fillWheels), brings the recipe's Go toolchain into the
// host's cache (fetchGo; the recipe's go: must name a release, as
// ResolveGo leaves it), and downloads the Go modules go.mod requires into
// a temporary module cache (downloadGoModules). Progress goes to status,
// the tools' output to logDir/deps.log. The caller closes it.
func PrepareDeps(ctx context.Context, r recipe.Recipe, tree Tree, logDir string, w io.Writer) (*Deps, error) {
	if len(r.Requirements) > 0 {
		if err := fillWheels(ctx, r, logDir, w); err != nil {
			return nil, err
		}
	}
	d, err := planDeps(r, tree)
	if err != nil {
		return nil, err
	}
	if d.goRoot, err = fetchGo(ctx, r, logDir, w); err != nil {
		return nil, err
	}
	if err := d.fetch(ctx, tree, logDir, w); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// fetch downloads the Go modules, once.
func (d *Deps) fetch(ctx context.Context, tree Tree, logDir string, w io.Writer) error {
	if !d.goMod || d.goCache != "" {
		return nil
	}
	tmp, err := os.MkdirTemp("", "lolbench-deps-")
	if err != nil {
		return err
	}
	d.tmp = tmp
	cache := filepath.Join(tmp, "gomod")
	if err := downloadGoModules(ctx, tree, filepath.Join(tmp, "src"), cache, logDir, w); err != nil {
		return err
	}
	os.RemoveAll(filepath.Join(tmp, "src"))
	d.goCache = cache
	return nil
}

// downloadGoModules runs go mod download twice in a copy of the tree: once
// through the host's own configuration (GOPROXY, GOMODCACHE), which reuses
// and fills the host's module cache, then into cache, an empty module cache,
// from the host's cache as a file proxy. The second run copies exactly what
// the go command needs offline: the go.mod files of the module graph and
// the modules go.mod requires (go 1.17 and later; every module of the graph
// before). Checksums were verified by the first run, against go.sum or the
// checksum database.
func downloadGoModules(ctx context.Context, tree Tree, src, cache, logDir string, w io.Writer) error {
	logf, err := openLogAppend(logDir, "deps.log")
	if err != nil {
		return err
	}
	defer logf.Close()
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("go_modules: the repository's go.mod requires modules, and there is no go command on this host to download them; install Go, or set go_modules: off in the recipe and provide the modules otherwise (vendor/)")
	}
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := tree.WriteTar(tw, "")
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	if err := Extract(pr, src, 1<<40); err != nil {
		pr.CloseWithError(err)
		return fmt.Errorf("go_modules: copy the tree: %w", err)
	}
	// The host's go downloads the modules whatever the recipe's toolchain:
	// the module graph is go.mod's. When it is at least as new as go.mod's
	// go line, GOTOOLCHAIN=local keeps it from switching to the release a
	// toolchain line names (a download for nothing); an older one is left
	// to the host's own GOTOOLCHAIN.
	tcEnv := hostToolchainEnv(ctx, tree)
	run := func(what string, env ...string) (string, error) {
		env = append(append([]string(nil), tcEnv...), env...)
		status(w, "go modules: %s", what)
		fmt.Fprintf(logf, "$ %s go mod download\n", strings.Join(env, " "))
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, "go", "mod", "download")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdout, cmd.Stderr = io.MultiWriter(logf, &out), io.MultiWriter(logf, &out)
		err := cmd.Run()
		return lastLine(out.String()), err
	}
	// -mod=mod after the host's GOFLAGS, which may say vendor; GOWORK=off:
	// a go.work above the copy must not change the module graph.
	flags := strings.TrimSpace(goEnv(ctx, src, "GOFLAGS", tcEnv...) + " -mod=mod")
	if last, err := run("go mod download through this host's GOPROXY", "GOFLAGS="+flags, "GOWORK=off"); err != nil {
		return fmt.Errorf("go_modules: go mod download (through GOPROXY %s) failed: %v: %s (log %s)", goEnv(ctx, src, "GOPROXY", tcEnv...), err, last, logf.Name())
	}
	hostCache := goEnv(ctx, src, "GOMODCACHE", tcEnv...)
	if hostCache == "" {
		return fmt.Errorf("go_modules: go env GOMODCACHE printed nothing (log %s)", logf.Name())
	}
	proxy := "file://" + filepath.ToSlash(filepath.Join(hostCache, "cache", "download"))
	// -modcacherw: the copy can be removed afterwards; in the image it is
	// root's and read-only to the tests anyway.
	if last, err := run("copying what is needed offline", "GOMODCACHE="+cache, "GOPROXY="+proxy, "GOSUMDB=off",
		"GONOPROXY=", "GOPRIVATE=", "GONOSUMDB=", "GOFLAGS="+flags+" -modcacherw", "GOWORK=off"); err != nil {
		return fmt.Errorf("go_modules: go mod download from the host's module cache failed: %v: %s (log %s)", err, last, logf.Name())
	}
	return nil
}

// hostToolchainEnv is GOTOOLCHAIN=local when the host's go is at least
// as new as the tree's go.mod's go line (or the go.mod has none), else
// nothing.
func hostToolchainEnv(ctx context.Context, tree Tree) []string {
	host, err := gotoolchain.HostVersion(ctx)
	if err != nil {
		return nil
	}
	data, err := tree.ReadFile("go.mod")
	if err != nil {
		return nil
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil
	}
	if f.Go == nil || gotoolchain.Compare(host, f.Go.Version) >= 0 {
		return []string{"GOTOOLCHAIN=local"}
	}
	return nil
}

// goEnv is one variable of go env, as the go command sees it in dir with
// env.
func goEnv(ctx context.Context, dir, name string, env ...string) string {
	cmd := exec.CommandContext(ctx, "go", "env", name)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// fillWheels makes the wheels folder satisfy the requirement files when
// the host can: if pip resolves them offline from the folder, there is
// nothing to do; else pip download fills the folder from the index pip is
// configured with (PIP_INDEX_URL, pip.conf). A host without pip leaves the
// folder as it is, and pip in the image says what is missing. The host's
// Python should match the image's for binary wheels (Debian bookworm's is
// 3.11); pure-Python wheels and sdists fit any.
func fillWheels(ctx context.Context, r recipe.Recipe, logDir string, w io.Writer) error {
	if r.Dir == "" {
		return errors.New("recipe: wheels: the recipe's folder is unknown (a recipe read with Parse, not Load)")
	}
	wheels := filepath.Join(r.Dir, filepath.FromSlash(r.Wheels))
	// The recipe folder's links are checked as HostFiles checks them, so
	// that pip download never writes outside the folder.
	if err := os.MkdirAll(wheels, 0o755); err != nil {
		return fmt.Errorf("recipe: wheels: %w", err)
	}
	if _, err := r.HostFiles(); err != nil {
		return fmt.Errorf("recipe: %w", err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		status(w, "wheels: no python3 on this host; %s is used as it is", wheels)
		return nil
	}
	logf, err := openLogAppend(logDir, "deps.log")
	if err != nil {
		return err
	}
	defer logf.Close()
	var reqs []string
	for _, q := range r.Requirements {
		reqs = append(reqs, "-r", filepath.Join(r.Dir, filepath.FromSlash(q)))
	}
	pip := func(args ...string) (string, error) {
		args = append([]string{"-m", "pip", "--disable-pip-version-check", "--no-input"}, args...)
		fmt.Fprintf(logf, "$ python3 %s\n", strings.Join(args, " "))
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, "python3", args...)
		cmd.Dir = r.Dir
		// A dry run installs nothing, so a Python that Debian manages
		// (PEP 668) need not refuse it.
		cmd.Env = append(os.Environ(), "PIP_BREAK_SYSTEM_PACKAGES=1")
		cmd.Stdout, cmd.Stderr = io.MultiWriter(logf, &out), io.MultiWriter(logf, &out)
		err := cmd.Run()
		return lastLine(out.String()), err
	}
	// --ignore-installed: what the host has installed must not count.
	last, err := pip(append([]string{"install", "--dry-run", "--ignore-installed", "--no-index", "--find-links", wheels, "--quiet"}, reqs...)...)
	switch {
	case err == nil:
		return nil
	case strings.Contains(last, "No module named pip"):
		status(w, "wheels: no pip on this host (python3 -m pip); %s is used as it is", wheels)
		return nil
	}
	status(w, "wheels: %s lacks requirements; filling it with pip download", wheels)
	if last, err := pip(append([]string{"download", "--dest", wheels, "--progress-bar", "off"}, reqs...)...); err != nil {
		return fmt.Errorf("recipe: wheels: %s does not hold every requirement of %s, and pip download could not fetch them: %s (log %s); put the wheels there by hand, or make an index reachable (PIP_INDEX_URL)",
			r.Wheels, strings.Join(r.Requirements, ", "), last, logf.Name())
	}
	return nil
}

// WriteTar writes the build context's deps/ folder below prefix: recipe/
// with the host files at their paths (and the wheels folder, even empty),
// gomod/ with the module cache.
func (d *Deps) WriteTar(tw *tar.Writer, prefix string) error {
	if d == nil || !d.layout().copyDeps {
		return nil
	}
	if d.goMod && d.goCache == "" {
		return errors.New("deps: the Go modules were not downloaded")
	}
	dirs := map[string]bool{}
	mkdir := func(p string) error {
		var chain []string
		for ; p != "." && p != "" && !dirs[p]; p = path.Dir(p) {
			chain = append(chain, p)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			dirs[chain[i]] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: prefix + chain[i] + "/", Mode: 0o755, ModTime: tarEpoch, Format: tar.FormatPAX}); err != nil {
				return err
			}
		}
		return nil
	}
	if err := mkdir("deps/recipe"); err != nil {
		return err
	}
	if d.r.Wheels != "" {
		if err := mkdir("deps/recipe/" + d.r.Wheels); err != nil {
			return err
		}
	}
	for _, f := range d.files {
		name := "deps/recipe/" + f.Rel
		if err := mkdir(path.Dir(name)); err != nil {
			return err
		}
		if err := d.copyFile(tw, prefix+name, f); err != nil {
			return err
		}
	}
	if d.goMod {
		if err := (DirTree{Dir: d.goCache}).WriteTar(tw, prefix+"deps/gomod/"); err != nil {
			return fmt.Errorf("deps: module cache: %w", err)
		}
	}
	return nil
}

// copyFile writes one host file, read again inside the recipe's folder;
// it must still have the size HostFiles saw, or the key would lie.
func (d *Deps) copyFile(tw *tar.Writer, name string, f recipe.HostFile) error {
	h, err := d.r.OpenHostFile(f)
	if err != nil {
		return fmt.Errorf("recipe: %w", err)
	}
	defer h.Close()
	st, err := h.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Size() != f.Size {
		return fmt.Errorf("recipe: %s: %s changed while the environment was built", f.Field, filepath.Join(d.r.Dir, f.Rel))
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Size: f.Size, Mode: 0o644, ModTime: tarEpoch, Format: tar.FormatPAX}); err != nil {
		return err
	}
	if _, err := io.CopyN(tw, h, f.Size); err != nil {
		return fmt.Errorf("recipe: %s: %s: %w", f.Field, filepath.Join(d.r.Dir, f.Rel), err)
	}
	return nil
}

// WriteDir writes the deps/ folder into dir, for a Harbor task's
// environment/ (its Dockerfile copies it as layer 2 does), and the
// recipe's Go toolchain as toolchain/ (which its layer 1 copies).
func (d *Deps) WriteDir(dir string) error {
	if d == nil {
		return nil
	}
	goV, err := goRelease(d.r)
	if err != nil {
		return err
	}
	if goV != "" && d.goRoot == "" {
		return fmt.Errorf("deps: the Go toolchain go%s was not fetched", goV)
	}
	if !d.layout().copyDeps && d.goRoot == "" {
		return nil
	}
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := d.WriteTar(tw, "")
		if err == nil && d.goRoot != "" {
			err = writeToolchain(tw, "", d.goRoot)
		}
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	if err := Extract(pr, dir, 1<<40); err != nil {
		pr.CloseWithError(err)
		return err
	}
	return nil
}

// depsDockerfile is layer 2's part for the dependencies, before the
// repository is copied (so that a new base commit with the same
// dependencies reuses the layer): the deps/ folder as root's, and the Go
// variables that make the go command use the module cache offline.
// GOFLAGS keeps what the image set.
func depsDockerfile(l layout) string {
	if !l.copyDeps {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "COPY deps/ %s/\n", depsRoot)
	if l.goMod {
		fmt.Fprintf(&b, "ENV GOMODCACHE=%s GOFLAGS=\"${GOFLAGS} -mod=mod\" GOPROXY=off GOSUMDB=off\n", GoModCache)
	}
	return b.String()
}

// pipCommand installs the requirement files from the wheels folder with
// no index, as the recipe's user (pip falls back to a user install when
// site-packages is not writable); "" when there are none.
// PIP_BREAK_SYSTEM_PACKAGES: Debian marks its Python externally managed
// (PEP 668); the image is ours to change.
func pipCommand(l layout) string {
	if len(l.requirements) == 0 {
		return ""
	}
	cmd := "PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --disable-pip-version-check --no-input --no-cache-dir --no-warn-script-location --progress-bar off --no-index --find-links " +
		testcmd.Quote(recipe.FilesDir+"/"+l.wheels)
	for _, q := range l.requirements {
		cmd += " -r " + testcmd.Quote(recipe.FilesDir+"/"+q)
	}
	return cmd
}

// mavenSettings makes the recipe's Maven repository folder the user's
// local repository, offline (the user's settings.xml wins over the
// image's /etc/maven/settings.xml); "" when the recipe brings none. The
// home folder it is written to is put back before every graded run.
func mavenSettings(l layout) string {
	if l.mavenRepo == "" {
		return ""
	}
	repo := recipe.FilesDir + "/" + l.mavenRepo
	return `mkdir -p "$HOME/.m2" && printf '%s\n' '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">' ` +
		testcmd.Quote("  <localRepository>"+repo+"</localRepository>") + ` '  <offline>true</offline>' '</settings>' >"$HOME/.m2/settings.xml"`
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// openLogAppend opens a log file in dir for appending.
func openLogAppend(dir, name string) (*os.File, error) {
	if dir == "" {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("log folder: %w", err)
	}
	return os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
}
