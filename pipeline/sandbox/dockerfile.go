package sandbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/gotoolchain"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// fromImage is the image layer 1 starts from: the recipe's image, with the
// bundled offline base's name resolved to the tag of its language's image
// on this machine.
func fromImage(r recipe.Recipe) string { return baseimage.Resolve(r.Image, r.Language, os.Getenv) }

// Image repositories of the three layers.
const (
	BaseRepo = "lolbench/base"
	EnvRepo  = "lolbench/env"
	TaskRepo = "lolbench/task"
)

// Label keys: the Harbor Dockerfile labels its image with the base commit
// and the task; job containers carry the task's.
const (
	LabelBase = "org.lolbench.base-commit"
	LabelTask = "org.lolbench.task"
)

// baseDockerfileBody is layer 1 after its FROM line: system packages, the
// non-root user, the recipe's Go toolchain, the recipe's environment
// variables and the working folder. The classic builder commits a layer
// for every instruction, ENV, WORKDIR, USER and LABEL included, and on
// some storage drivers (fuse-overlayfs) each commit walks the whole image,
// seconds each: so one RUN, the toolchain's COPY when there is one, one
// ENV and the WORKDIR, and no labels. The toolchain is in layer 1, not in
// layer 2 with the other host dependencies, so that every base commit and
// every project with the same image and release share its 200 MiB.
func baseDockerfileBody(r recipe.Recipe) string {
	var b strings.Builder
	// useradd (Debian, Fedora) or adduser (Alpine's busybox).
	user := fmt.Sprintf("(id -u %[1]s >/dev/null 2>&1 || useradd -m -s /bin/sh %[1]s || adduser -D -s /bin/sh %[1]s)", r.User)
	if len(r.Packages) > 0 {
		pk := append([]string(nil), r.Packages...)
		sort.Strings(pk)
		fmt.Fprintf(&b, "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends %s && rm -rf /var/lib/apt/lists/* && %s\n", strings.Join(pk, " "), user)
	} else {
		fmt.Fprintf(&b, "RUN %s\n", user)
	}
	// The recipe's Go toolchain (issue 31 §1), when it names one: copied
	// from the host, its bin first on PATH, GOTOOLCHAIN=local unless the
	// recipe says otherwise.
	goV := goReleaseOf(r)
	b.WriteString(goDockerfile(goV))
	env := make(map[string]string, len(r.Env)+2)
	for k, v := range r.Env {
		env[k] = dockerQuote(v)
	}
	if goV != "" {
		p, set := r.Env["PATH"]
		env["PATH"] = goPath(p, set)
		if _, ok := r.Env["GOTOOLCHAIN"]; !ok {
			env["GOTOOLCHAIN"] = dockerQuote("local")
		}
		if _, ok := r.Env["GOFLAGS"]; !ok && gotoolchain.Compare(goV, "1.18") < 0 {
			// The offline base image sets -buildvcs=false, a flag go
			// commands before 1.18 refuse (grpc-go's go 1.17 line).
			env["GOFLAGS"] = dockerQuote("")
		}
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		// One ENV sets them all; the values are quoted, so none refers
		// to another (the toolchain's PATH refers to the image's own).
		b.WriteString("ENV")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%s", k, env[k])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "WORKDIR %s\n", recipe.Workdir)
	return b.String()
}

// envDockerfileBody is layer 2 after its FROM line: the dependencies from
// the host (deps/, issue 13 §2), the base tree in /testbed, then one RUN
// as root (envScript) and the recipe's user for what runs in the image.
func envDockerfileBody(r recipe.Recipe, l layout) string {
	var b strings.Builder
	b.WriteString(depsDockerfile(l))
	fmt.Fprintf(&b, "COPY --chown=%[1]s:%[1]s repo/ %[2]s/\n", r.User, recipe.Workdir)
	fmt.Fprintf(&b, "RUN [\"/bin/sh\", \"-c\", %s]\n", jsonString(envScript(r, l)))
	fmt.Fprintf(&b, "USER %s\n", r.User)
	return b.String()
}

// envScript is layer 2's RUN, as root, in place of a RUN per user switch
// (see baseDockerfileBody for why): root takes the base tree's file list
// before anything runs; the recipe's user runs setupScript through setpriv,
// with what a USER instruction would give it (its uid, gid and groups, its
// HOME unless the recipe sets one, the image's other variables); then root
// keeps, out of that user's reach, what the verifier puts back before every
// graded run (guard.PristineDir): the file list, and copies of the
// repository and of the user's home folder as the install step left them.
func envScript(r recipe.Recipe, l layout) string {
	p, u := guard.PristineDir, testcmd.Quote(r.User)
	var b strings.Builder
	fmt.Fprintf(&b, "mkdir -p -m 0700 %[1]s && cd %[2]s && chown %[3]s:%[3]s . && find . -mindepth 1 ! -type d -print0 >%[1]s/tracked || exit 1\n", p, recipe.Workdir, u)
	fmt.Fprintf(&b, "home=$(awk -F: -v u=%s '$1 == u { print $6 }' /etc/passwd)\n", u)
	fmt.Fprintf(&b, "command -v setpriv >/dev/null 2>&1 || { echo 'the image has no setpriv (util-linux), with which layer 2 runs the install commands as %s'; echo '%s'; exit 127; }\n", r.User, stepPrefix+"user switch"+stepFailed+"127")
	setHome := `HOME="$home" `
	if _, ok := r.Env["HOME"]; ok {
		setHome = ""
	}
	fmt.Fprintf(&b, "setpriv --reuid=\"$(id -u %[1]s)\" --regid=\"$(id -g %[1]s)\" --init-groups env %[2]ssh -c %[3]s || exit $?\n", u, setHome, testcmd.Quote(setupScript(r, l, recipe.Workdir)))
	fmt.Fprintf(&b, `cp -a %[2]s %[1]s/testbed && cp -a "$home" %[1]s/home && chmod 0700 %[1]s`+"\n", p, recipe.Workdir)
	return b.String()
}

// stepName is s's first line, cut to n bytes with "..." when longer.
func stepName(s string, n int) string {
	l, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l, more = strings.ToValidUTF8(l[:n], ""), true
	}
	if more {
		l += "..."
	}
	return l
}

// Lines setupScript prints before and after a failing step, read back by
// stepLog to name the step in the executors' errors.
const (
	stepPrefix = "lolbench-step: "
	stepFailed = " failed with exit status "
)

// stepLog reads setupScript's output a line at a time, as both executors
// get it, and keeps what an error needs: the environment check's failure,
// the failing step, and the last lines that step printed.
type stepLog struct {
	check, failed string
	// step is the setup script's step under way, for the progress lines.
	step    string
	last    []string
	partial []byte // Write's line so far
}

// maxStepLine bounds a line that Write keeps: an install command may print
// megabytes without a newline, and only the last lines' starts are shown.
const maxStepLine = 4096

// Write feeds add whole lines of a command's output as it comes (the local
// executor), keeping at most maxStepLine bytes of a line; err takes the
// last line even without its newline.
func (s *stepLog) Write(p []byte) (int, error) {
	n := len(p)
	for {
		line, rest, full := bytes.Cut(p, []byte("\n"))
		s.partial = append(s.partial, line[:min(len(line), max(0, maxStepLine-len(s.partial)))]...)
		if !full {
			return n, nil
		}
		s.add(string(s.partial))
		s.partial, p = s.partial[:0], rest
	}
}

func (s *stepLog) add(line string) {
	l := strings.TrimSpace(line)
	if c, ok := strings.CutPrefix(l, checkPrefix); ok {
		s.check = c // the check's own line: the error without its prefix
	}
	if name, ok := strings.CutPrefix(l, stepPrefix); ok {
		if strings.Contains(name, stepFailed) {
			s.failed = name
		} else {
			s.step = name
			s.reset() // a new step: the output that matters is its own
		}
		return
	}
	if l != "" {
		s.last = append(s.last, l)
		if len(s.last) > 5 {
			s.last = s.last[len(s.last)-5:]
		}
	}
}

// reset drops the lines so far (a new step of the setup script or of the
// engine's build).
func (s *stepLog) reset() { s.last = s.last[:0] }

// err is the error of a failed setup: the check's own line, else prefix
// and the failing step (what, when no step said it failed) with its last
// output; log is the full log.
func (s *stepLog) err(prefix, what, log string) error {
	if len(s.partial) > 0 {
		s.add(string(s.partial))
		s.partial = s.partial[:0]
	}
	if s.check != "" {
		return fmt.Errorf("environment check failed: %s (log %s)", s.check, log)
	}
	if s.failed != "" {
		what = s.failed
	}
	last := ""
	if len(s.last) > 0 {
		last = "; last output: " + strings.Join(s.last, " | ")
	}
	return fmt.Errorf("%s%s%s (log %s)", prefix, what, last, log)
}

// setupScript is layer 2's work as the recipe's user, one RUN instead of
// one per step (see baseDockerfileBody for why): the base commit
// (SnapshotScript), pip for the requirement files, the Maven settings for
// the recipe's Maven repository, then each install
// command in its own sh -c, as its own RUN would run it (a cd or a
// variable does not carry over), then the environment check. Each step
// prints its name first (an install command's first line); a failing one
// prints its exit status and stops the script with it.
func setupScript(r recipe.Recipe, l layout, testbed string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "step() {\n\tprintf '%[1]s%%s\\n' \"$1\"\n\tsh -c \"$2\" </dev/null || {\n\t\trc=$?\n\t\tprintf '%[1]s%%s%[2]s%%s\\n' \"$1\" \"$rc\"\n\t\texit \"$rc\"\n\t}\n}\n", stepPrefix, stepFailed)
	fmt.Fprintf(&b, "step 'base commit' %s\n", testcmd.Quote(SnapshotScript()))
	if cmd := pipCommand(l); cmd != "" {
		fmt.Fprintf(&b, "step 'requirements (pip install --no-index)' %s\n", testcmd.Quote(cmd))
	}
	if cmd := mavenSettings(l); cmd != "" {
		fmt.Fprintf(&b, "step 'Maven repository (~/.m2/settings.xml)' %s\n", testcmd.Quote(cmd))
	}
	for i, c := range r.Install {
		name := fmt.Sprintf("install %d of %d (%s)", i+1, len(r.Install), stepName(c, 80))
		fmt.Fprintf(&b, "step %s %s\n", testcmd.Quote(name), testcmd.Quote(c))
	}
	b.WriteString(CheckScript(testbed, r.Imports))
	return b.String()
}

// HarborDockerfile is the three layers in one self-contained Dockerfile,
// built from a context holding repo/ (the base tree) and, when the recipe
// brings dependencies from the host, deps/ (Deps.WriteDir; nil deps means
// none). Its instructions are those of the layered images in the same
// order, so on an engine that has built the layers the classic builder's
// cache serves every step; then layer 3, which Docker.Prepare does not
// build (it tags layer 2 with the task's name): the task's labels.
func HarborDockerfile(r recipe.Recipe, base, task string, deps *Deps) string {
	return "# Built by lolbench: the repository at the PR's base commit, in " + recipe.Workdir + ",\n" +
		"# with its dependencies installed. No network is needed once it is built.\n" +
		"FROM " + fromImage(r) + "\n" + baseDockerfileBody(r) + envDockerfileBody(r, deps.layout()) +
		fmt.Sprintf("LABEL %s=%s %s=%s\n", LabelBase, base, LabelTask, dockerQuote(task))
}

// Image names. Layer 1 is keyed by what it is built from; layer 2 by the
// project, the base commit, the tree and the recipe; layer 3 by the task.
// A layer 1 with a Go toolchain says its release in its tag
// ("lolbench/base:go1.22.0-<hash>"); the hash covers it too.
func baseImageName(r recipe.Recipe) string {
	h := hash12("FROM " + fromImage(r) + "\n" + baseDockerfileBody(r))
	if v := goReleaseOf(r); v != "" {
		return BaseRepo + ":" + tagPart("go"+v) + "-" + h
	}
	return BaseRepo + ":" + h
}

// envImageName names layer 2 for spec and the dependencies planned for it.
func envImageName(spec Spec, deps *Deps) string {
	key := baseImageName(spec.Recipe) + "\n" + envDockerfileBody(spec.Recipe, deps.layout()) + "\nbase " + spec.Base + "\n" + spec.Tree.Key()
	if k := deps.Key(); k != "" {
		key += "\ndeps " + k
	}
	b := spec.Base
	if len(b) > 12 {
		b = b[:12]
	}
	return EnvRepo + ":" + tagPart(spec.Project) + "-" + tagPart(b) + "-" + hash12(key)
}

func taskImageName(spec Spec) string {
	return TaskRepo + ":" + tagPart(spec.Task)
}

func hash12(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:12]
}

var tagBad = regexp.MustCompile(`[^a-z0-9_.-]+`)

// tagPart makes s usable in an image tag: lower case, [a-z0-9_.-], at most
// 48 characters, never empty or starting with . or -.
func tagPart(s string) string {
	t := tagBad.ReplaceAllString(strings.ToLower(s), "-")
	t = strings.Trim(t, ".-")
	if len(t) > 48 {
		t = t[:40] + "-" + hash12(s)[:7]
	}
	if t == "" {
		t = "x" + hash12(s)[:7]
	}
	return t
}

// dockerQuote quotes a value for ENV and LABEL lines, where the builder
// processes backslashes and expands variables. Line breaks never reach
// here: recipe.Validate refuses them in values.
func dockerQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "\n", " ", "\r", " ")
	return `"` + r.Replace(s) + `"`
}

// jsonString is s as a JSON string, for the exec form of RUN.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// EnvKey names a repository's environment independently of the executor:
// the base commit and a hash of what layers 1 and 2 are built from, as the
// recipe declares them (the contents of its host files and whether the
// tree's go.mod needs modules are the same for every task of one base
// commit and recipe). Tasks with the same key share layer 2 (it is the
// SWE-bench export's version).
func EnvKey(r recipe.Recipe, base string) string {
	return short(base) + "-" + hash12("FROM " + fromImage(r) + "\n" + baseDockerfileBody(r) + envDockerfileBody(r, recipeLayout(r, false)))[:8]
}
