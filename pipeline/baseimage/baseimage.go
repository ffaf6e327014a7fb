// Package baseimage is lolbench's bundled offline base images: Debian
// bookworm root filesystems made from Debian's packages and imported into
// Docker, for machines where no image registry can be reached (issue 13),
// one per toolchain (issue 22). The sample projects' recipes name them, and
// `lolbench env base [--lang L]` builds them.
//
// The common image (base-image.sh: debootstrap, docker import) serves Go and
// Python. A language with a toolchain of its own gets an image that is one
// layer on top of the common one (java-image.sh: the host's apt resolves
// the packages against the common image's dpkg status, a container with no
// network installs them, docker commit keeps the layer), so a second
// language costs only its own packages.
//
// A recipe names them as Name, without a tag, and picks one by its
// language. Resolve turns that name into the image's content tag (a hash of
// its build script, layer-image.sh, its tool sources and its parent's tag,
// so a changed script yields a new tag and nothing stale is reused), or
// into the tag that the image's environment variable names.
package baseimage

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/gotoolchain"
)

// Name is what a recipe's image field says to mean the bundled offline
// base image of its language.
const Name = "lolbench/offline-base"

// EnvVar overrides the tag of the common image (and so the parent of
// every other one).
const EnvVar = "LOLBENCH_BASE_IMAGE"

// BuildCommand is the command that builds the common image, for error
// messages; Image.BuildCommand names a language's.
const BuildCommand = "lolbench env base"

//go:embed base-image.sh
var commonScript []byte

// layerScript is what the language images' scripts share; it is written
// beside each one, which sources it.
//
//go:embed layer-image.sh
var layerScript []byte

//go:embed java-image.sh
var javaScript []byte

//go:embed java
var javaTools embed.FS

//go:embed rust-image.sh
var rustScript []byte

//go:embed rust
var rustTools embed.FS

//go:embed c-image.sh
var cScript []byte

//go:embed cfamily
var cTools embed.FS

//go:embed node-image.sh
var nodeScript []byte

//go:embed node
var nodeTools embed.FS

// Image is one offline base image.
type Image struct {
	// Key is what `lolbench env base --lang` takes for it: "common", "java".
	Key string
	// Aliases are other names --lang takes for it ("cpp").
	Aliases []string
	// Languages are the pipeline/lang names it serves.
	Languages []string
	// Toolchain says what it holds, for `lolbench lang list`.
	Toolchain string
	// Parent is the image it is one layer on top of; nil for the common
	// image, which debootstrap makes from nothing.
	Parent *Image
	// EnvVar overrides its tag.
	EnvVar string
	// prefix starts its tag after "Name:".
	prefix string
	script []byte
	// tools are sources the script builds into the image (--tools DIR).
	tools fs.FS
}

// Common is the image of Go and Python, and the parent of the others.
var Common = &Image{
	Key: "common", Languages: []string{"Go", "Python"}, EnvVar: EnvVar, prefix: "bookworm-", script: commonScript,
	Toolchain: "Go 1.19, Python 3.11, pytest 7.2, coverage.py 6.5, pip, git",
}

// Java is the image of Java: OpenJDK 17, Maven 3.8.7 offline against
// Debian's repository, JUnit 5, Surefire 2.22, JaCoCo 0.8.6 and lolbench's
// per-test coverage listener.
var Java = &Image{
	Key: "java", Languages: []string{"Java"}, Parent: Common, EnvVar: "LOLBENCH_BASE_IMAGE_JAVA",
	prefix: "java-bookworm-", script: javaScript, tools: mustSub(javaTools, "java"),
	Toolchain: "OpenJDK 17, Maven 3.8.7 (offline, Debian's repository), JUnit 5.9, Surefire 2.22, JaCoCo 0.8.6",
}

// Rust is the image of Rust: Debian's rustc 1.63 and cargo offline
// against the crates Debian packages, LLVM 14's coverage tools with
// clang's profile runtime, and lolbench-cargo-test.
var Rust = &Image{
	Key: "rust", Languages: []string{"Rust"}, Parent: Common, EnvVar: "LOLBENCH_BASE_IMAGE_RUST",
	prefix: "rust-bookworm-", script: rustScript, tools: mustSub(rustTools, "rust"),
	Toolchain: "rustc 1.63, cargo 0.66 (offline, Debian's crates in /usr/share/cargo/registry), llvm-cov 14 with clang's profile runtime",
}

// CFamily is the image of C and C++: gcc and g++ 12, CMake and CTest 3.25,
// cmocka, GoogleTest 1.12 (and its sources, a FetchContent stand-in), gcovr
// and lolbench-ctest.
var CFamily = &Image{
	Key: "cfamily", Aliases: []string{"cpp", "cxx"}, Languages: []string{"C", "C++", "C/C++ Header"}, Parent: Common,
	EnvVar: "LOLBENCH_BASE_IMAGE_CFAMILY", prefix: "cfamily-bookworm-", script: cScript, tools: mustSub(cTools, "cfamily"),
	Toolchain: "gcc/g++ 12, CMake and CTest 3.25, cmocka 1.1, GoogleTest 1.12 (and its sources), gcov, gcovr 5.2",
}

// Node is the image of JavaScript and TypeScript: Node.js 18 and its
// node:test runner, TypeScript 4.8 and ts-node, and lolbench's node tools
// (lolbench-node-test, its one-process runner and its JUnit reporter).
var Node = &Image{
	Key: "node", Languages: []string{"JavaScript", "TypeScript"}, Parent: Common, EnvVar: "LOLBENCH_BASE_IMAGE_NODE",
	prefix: "node-bookworm-", script: nodeScript, tools: mustSub(nodeTools, "node"),
	Toolchain: "Node.js 18 (node:test), TypeScript 4.8, ts-node 10.9, lolbench-node-test with a JUnit reporter (file, \"describe › it\")",
}

// HostSDK names, per language (a pipeline/lang name), why lolbench builds
// no offline image for it and what a recipe brings from the host instead:
// the support matrix (lolbench lang list) shows it.
var HostSDK = map[string]string{
	"C#": "needs an SDK from the host: Debian has no .NET SDK (only mono's mcs, C# 7 at most), and Roslyn and ASP.NET Core build with dotnet; a recipe brings one through files: (docs/projects.md, \"C#\")",
}

// offlineOnly is what every language but Go can have: the version its
// image's Debian packages give. Builds have no network where the images
// are made offline, and the images hold no compiler for another.
const offlineOnly = "; another needs a public image that has it (recipe image:) on a machine that reaches its registry"

// Versions says, per language (a pipeline/lang name), which toolchain
// versions a task can have offline and how, for the support matrix
// (lolbench lang list, docs/languages.md). Go is the one language whose
// version a recipe picks (pipeline/gotoolchain); the others have the
// version of their offline image's Debian packages.
var Versions = map[string]string{
	"Go":           gotoolchain.Support,
	"Python":       "Python 3.11 only (Debian bookworm's python3 3.11.2, pip 23.0; the common image has no C compiler to build another Python)" + offlineOnly,
	"Java":         "OpenJDK 17 only (Debian's openjdk-17-jdk-headless, Maven 3.8.7)" + offlineOnly,
	"Rust":         "rustc 1.63 and cargo 0.66 only (Debian's; edition 2021 without later features)" + offlineOnly,
	"C":            "gcc 12 and CMake 3.25 only (Debian's)" + offlineOnly,
	"C++":          "g++ 12 and CMake 3.25 only (Debian's)" + offlineOnly,
	"C/C++ Header": "gcc/g++ 12 and CMake 3.25 only (Debian's)" + offlineOnly,
	"JavaScript":   "Node.js 18 only (Debian's nodejs)" + offlineOnly,
	"TypeScript":   "TypeScript 4.8 on Node.js 18 only (Debian's node-typescript and ts-node)" + offlineOnly,
	"C#":           "the SDK a recipe brings from the host through files: (no offline image)",
}

// Images lists the images, parents first.
var Images = []*Image{Common, Java, Rust, CFamily, Node}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return s
}

// ByKey returns the image with the key ("java"), or nil.
func ByKey(key string) *Image {
	for _, im := range Images {
		if strings.EqualFold(im.Key, key) {
			return im
		}
		for _, a := range im.Aliases {
			if strings.EqualFold(a, key) {
				return im
			}
		}
	}
	return nil
}

// ForLanguage returns the image that serves a language (a pipeline/lang
// name, any case), or nil when none does.
func ForLanguage(language string) *Image {
	for _, im := range Images {
		for _, l := range im.Languages {
			if strings.EqualFold(l, language) {
				return im
			}
		}
	}
	return nil
}

// Script is the common image's build script (debootstrap, docker import,
// check).
func Script() []byte { return commonScript }

// ContentTag is the common image's tag derived from its build script:
// "lolbench/offline-base:bookworm-<12 hex digits>".
func ContentTag() string { return Common.ContentTag(nil) }

// Tag is the tag the common image has on this machine: $LOLBENCH_BASE_IMAGE
// when set, else ContentTag.
func Tag(getenv func(string) string) string { return Common.Tag(getenv) }

// ContentTag is the image's tag derived from what builds it: its script,
// its tool sources and its parent's tag (as getenv resolves it).
func (im *Image) ContentTag(getenv func(string) string) string {
	h := sha256.New()
	h.Write(im.script)
	if im.Parent != nil {
		fmt.Fprintf(h, "\x00layer-image.sh\x00%d\x00", len(layerScript))
		h.Write(layerScript)
	}
	if im.tools != nil {
		names, _ := fs.Glob(im.tools, "*")
		sort.Strings(names)
		for _, n := range names {
			data, _ := fs.ReadFile(im.tools, n)
			fmt.Fprintf(h, "\x00%s\x00%d\x00", n, len(data))
			h.Write(data)
		}
	}
	if im.Parent != nil {
		fmt.Fprintf(h, "\x00parent %s", im.Parent.Tag(getenv))
	}
	return Name + ":" + im.prefix + hex.EncodeToString(h.Sum(nil))[:12]
}

// Tag is the tag the image has on this machine: its environment variable
// when set, else its content tag.
func (im *Image) Tag(getenv func(string) string) string {
	if getenv != nil {
		if t := strings.TrimSpace(getenv(im.EnvVar)); t != "" {
			return t
		}
	}
	return im.ContentTag(getenv)
}

// BuildCommand is the command that builds the image.
func (im *Image) BuildCommand() string {
	if im == Common {
		return BuildCommand
	}
	return BuildCommand + " --lang " + im.Key
}

// Resolve returns the image a recipe's image field means: for Name, the
// tag of the offline image of the recipe's language (the common image when
// the language is empty or has none of its own: Validate refuses the
// latter), else the field itself.
func Resolve(image, language string, getenv func(string) string) string {
	if image != Name {
		return image
	}
	if im := ForLanguage(language); im != nil {
		return im.Tag(getenv)
	}
	return Common.Tag(getenv)
}

// Offline returns the offline image a resolved image is, or nil: such an
// image is in no registry, so a missing one must be built, not pulled.
func Offline(resolved string, getenv func(string) string) *Image {
	for _, im := range Images {
		if resolved == im.Tag(getenv) {
			return im
		}
	}
	for _, im := range Images {
		if strings.HasPrefix(resolved, Name+":"+im.prefix) {
			return im
		}
	}
	if strings.HasPrefix(resolved, Name+":") {
		return Common
	}
	return nil
}

// IsOffline reports whether a resolved image is one of the bundled offline
// images.
func IsOffline(resolved string, getenv func(string) string) bool {
	return Offline(resolved, getenv) != nil
}

// Build builds the common image under tag; it returns at once when the
// image exists, unless force is set. The script's progress lines go to w.
func Build(ctx context.Context, tag string, force bool, w io.Writer) error {
	return runScript(ctx, commonScript, nil, []string{"--tag", tag}, force, w, "the offline base image "+tag)
}

// Build builds the image and, first, its parent when missing (never
// forced: --force rebuilds the image asked for). Each exits at once when
// its tag exists. The scripts' progress lines go to w.
func (im *Image) Build(ctx context.Context, getenv func(string) string, force bool, w io.Writer) error {
	if im.Parent != nil {
		if err := im.Parent.Build(ctx, getenv, false, w); err != nil {
			return err
		}
	}
	tag := im.Tag(getenv)
	if im.Parent == nil {
		return Build(ctx, tag, force, w)
	}
	return runScript(ctx, im.script, im.tools, []string{"--tag", tag, "--parent", im.Parent.Tag(getenv)}, force, w,
		"the offline "+im.Key+" image "+tag)
}

// runScript writes a build script (and its tools, passed as --tools) to a
// temporary folder and runs it with bash.
func runScript(ctx context.Context, script []byte, tools fs.FS, args []string, force bool, w io.Writer, what string) error {
	dir, err := os.MkdirTemp("", "lolbench-base-image-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "build.sh")
	if err := os.WriteFile(p, script, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "layer-image.sh"), layerScript, 0o644); err != nil {
		return err
	}
	if tools != nil {
		td := filepath.Join(dir, "tools")
		if err := os.CopyFS(td, tools); err != nil {
			return err
		}
		args = append(args, "--tools", td)
	}
	args = append([]string{p}, args...)
	if force {
		args = append(args, "--force")
	}
	cmd := exec.CommandContext(ctx, "bash", args...)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("build %s: %w (its last lines above say where it stopped)", what, err)
	}
	return nil
}
