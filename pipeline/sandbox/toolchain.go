package sandbox

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"

	"github.com/lolbench/lolbench/pipeline/gotoolchain"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

// GoRoot is where layer 1 puts the recipe's Go toolchain (issue 31 §1):
// root's and read-only to the tests (the verifier refuses PATH folders the
// test user can write), its bin/ first on PATH, with GOTOOLCHAIN=local so
// that nothing in the container tries to download another toolchain.
const GoRoot = "/usr/local/lib/lolbench/go"

// toolchainDir is the build context's folder that layer 1 copies to
// GoRoot; in a Harbor task, environment/toolchain/, beside deps/ (which
// layer 2 copies to /opt/lolbench-deps).
const toolchainDir = "toolchain"

// goRelease is the Go release the recipe gives its tasks, "" when they
// keep the image's Go (go: system, or no go: at all). A go: that names
// no release yet ("1.17", whose newest patch the module proxy decides) is
// an error: ResolveGo settles it when the task is built.
func goRelease(r recipe.Recipe) (string, error) {
	if r.Go == "" || r.Go == recipe.GoSystem {
		return "", nil
	}
	req, err := gotoolchain.ParseSpec(string(r.Go), "")
	if err != nil {
		return "", fmt.Errorf("recipe: go: %w", err)
	}
	if !req.Exact {
		return "", fmt.Errorf("recipe: go: %q names a minor version before 1.21, whose newest patch release the Go module proxy decides; lolbench build resolves it; or name a release (\"1.17.13\")", r.Go)
	}
	return req.Version, nil
}

// goReleaseOf is goRelease for image names, which cannot fail: a recipe
// whose go: is not a release yet has no toolchain layer (Prepare refuses
// it before it names anything).
func goReleaseOf(r recipe.Recipe) string {
	v, _ := goRelease(r)
	return v
}

// goFetcher is the host's toolchain cache, logging to logDir/deps.log;
// close closes the log.
func goFetcher(logDir string, w io.Writer) (f *gotoolchain.Fetcher, closeLog func(), err error) {
	root, err := gotoolchain.DefaultCache()
	if err != nil {
		return nil, nil, err
	}
	logf, err := openLogAppend(logDir, "deps.log")
	if err != nil {
		return nil, nil, err
	}
	return &gotoolchain.Fetcher{Root: root, Status: w, Log: logf}, func() { logf.Close() }, nil
}

// fetchGo brings the recipe's toolchain into the host's cache (downloading
// it the first time) and returns its GOROOT there; "" when the recipe
// keeps the image's Go.
func fetchGo(ctx context.Context, r recipe.Recipe, logDir string, w io.Writer) (string, error) {
	v, err := goRelease(r)
	if err != nil || v == "" {
		return "", err
	}
	f, closeLog, err := goFetcher(logDir, w)
	if err != nil {
		return "", err
	}
	defer closeLog()
	tc, err := f.Get(ctx, v, gotoolchain.HostArch())
	if err != nil {
		return "", err
	}
	return tc.GOROOT, nil
}

// ResolveGo settles the Go toolchain of a recipe for a base tree (issue 31
// §1), once, when a task is built, so that every later stage and the
// Harbor task use the same one without asking the module proxy again: a
// go: naming a release keeps it ("1.22" becomes "1.22.0"); go: system
// keeps the image's Go; a go: naming a minor version before 1.21 becomes
// its newest patch release the module proxy lists; no go: at all, for a
// recipe whose language is Go (its language:, else the candidate's,
// language), takes the tree's go.mod (its toolchain line, else its go
// line; without a go.mod, the image's Go). What it decided goes to w and
// logDir/deps.log.
func ResolveGo(ctx context.Context, r recipe.Recipe, language string, tree Tree, logDir string, w io.Writer) (recipe.Recipe, error) {
	if r.Go == recipe.GoSystem {
		return r, nil
	}
	if r.Language != "" {
		language = r.Language
	}
	logf, err := openLogAppend(logDir, "deps.log")
	if err != nil {
		return r, err
	}
	defer logf.Close()
	say := func(format string, args ...any) {
		status(w, format, args...)
		fmt.Fprintf(logf, format+"\n", args...)
	}
	var req gotoolchain.Request
	switch l := lang.ByName(language); {
	case r.Go != "":
		if req, err = gotoolchain.ParseSpec(string(r.Go), "recipe go: "+string(r.Go)); err != nil {
			return r, fmt.Errorf("recipe: go: %w", err)
		}
	case l == nil || l.Name != "Go":
		return r, nil
	default:
		if tree == nil {
			return r, errors.New("go toolchain: no repository tree to read go.mod from")
		}
		data, err := tree.ReadFile("go.mod")
		if errors.Is(err, fs.ErrNotExist) {
			say("go toolchain: the repository has no go.mod at its root: the image's Go (set go: in the recipe to choose one)")
			r.Go = recipe.GoSystem
			return r, nil
		}
		if err != nil {
			return r, fmt.Errorf("go.mod: %w", err)
		}
		if req, err = gotoolchain.FromGoMod("go.mod", data); err != nil {
			return r, err
		}
	}
	v, note, err := gotoolchain.Resolve(ctx, req, gotoolchain.HostArch(), gotoolchain.GoProxy{Log: logf})
	if err != nil {
		return r, err
	}
	if note != "" {
		say("go toolchain: %s", note)
	} else {
		say("go toolchain: go%s (%s)", v, req.Source)
	}
	r.Go = recipe.GoVersion(v)
	return r, nil
}

// goDockerfile is layer 1's part for the recipe's toolchain: the copy into
// GoRoot, preceded by a comment that names the release and architecture
// (which names the image: baseImageName hashes the text).
func goDockerfile(v string) string {
	if v == "" {
		return ""
	}
	return fmt.Sprintf("# Go %s for linux/%s (%s, downloaded on the host)\nCOPY %s/ %s/\n", v, gotoolchain.HostArch(), gotoolchain.ModulePath, toolchainDir, GoRoot)
}

// defaultPath is PATH when an image sets none, as Docker's own default.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// goPath is layer 1's PATH with the toolchain's bin first: before the
// recipe's PATH, or before the image's (a variable the builder expands).
func goPath(recipePath string, set bool) string {
	if set {
		return dockerQuote(GoRoot + "/bin:" + recipePath)
	}
	return `"` + GoRoot + "/bin:${PATH:-" + defaultPath + `}"`
}

// writeToolchain writes the toolchain's files below prefix+toolchainDir/,
// every one root's (COPY keeps no owner of the context's), folders and
// commands 0755, the rest 0644.
func writeToolchain(tw *tar.Writer, prefix, goroot string) error {
	if err := (DirTree{Dir: goroot}).WriteTar(tw, prefix+toolchainDir+"/"); err != nil {
		return fmt.Errorf("go toolchain %s: %w", goroot, err)
	}
	return nil
}

// localGoEnv is what the local executor sets for the recipe's toolchain:
// its bin first on PATH, its GOROOT (a GOROOT of the host's would point
// the go command at another standard library) and GOTOOLCHAIN=local.
func localGoEnv(goroot, path string) []string {
	if goroot == "" {
		return nil
	}
	return []string{"PATH=" + goroot + "/bin" + string(":") + path, "GOROOT=" + goroot, "GOTOOLCHAIN=local"}
}

// checkLocalGo fails when this host cannot run the linux toolchains
// lolbench fetches.
func checkLocalGo(v string) error {
	if v != "" && runtime.GOOS != "linux" {
		return fmt.Errorf("the local executor runs go%s for linux, and this host is %s: use --executor docker, or go: %s in the recipe", v, runtime.GOOS, recipe.GoSystem)
	}
	return nil
}
