package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/baseimage"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

// fromImage is the image layer 1 starts from: the recipe's image, with the
// bundled offline base's name resolved to its tag on this machine.
func fromImage(r recipe.Recipe) string { return baseimage.Resolve(r.Image, os.Getenv) }

// Image repositories of the three layers.
const (
	BaseRepo = "lolbench/base"
	EnvRepo  = "lolbench/env"
	TaskRepo = "lolbench/task"
)

// Label keys set on every image lolbench builds.
const (
	LabelLayer = "org.lolbench.layer"
	LabelBase  = "org.lolbench.base-commit"
	LabelTask  = "org.lolbench.task"
)

// baseDockerfileBody is layer 1 after its FROM line: system packages, the
// non-root user and the recipe's environment variables.
func baseDockerfileBody(r recipe.Recipe) string {
	var b strings.Builder
	if len(r.Packages) > 0 {
		pk := append([]string(nil), r.Packages...)
		sort.Strings(pk)
		fmt.Fprintf(&b, "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends %s && rm -rf /var/lib/apt/lists/*\n", strings.Join(pk, " "))
	}
	// useradd (Debian, Fedora) or adduser (Alpine's busybox).
	fmt.Fprintf(&b, "RUN id -u %[1]s >/dev/null 2>&1 || useradd -m -s /bin/sh %[1]s || adduser -D -s /bin/sh %[1]s\n", r.User)
	keys := make([]string, 0, len(r.Env))
	for k := range r.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "ENV %s=%s\n", k, dockerQuote(r.Env[k]))
	}
	fmt.Fprintf(&b, "LABEL %s=base\n", LabelLayer)
	return b.String()
}

// envDockerfileBody is layer 2 after its FROM line: the dependencies from
// the host (deps/, issue 13 §2), the base tree in /testbed as a one-commit
// repository, the recipe's requirement files installed from its wheels,
// and the install commands run there as the recipe's user, then the check
// that the project under test comes from /testbed (CheckScript). Then root
// keeps, out of that user's reach, what the verifier puts back before
// every graded run (guard.PristineDir): the base tree's file list, taken
// before anything ran, and copies of the repository and of the user's
// home folder as the install step left them.
func envDockerfileBody(r recipe.Recipe, base string, l layout) string {
	var b strings.Builder
	p := guard.PristineDir
	b.WriteString(depsDockerfile(l))
	fmt.Fprintf(&b, "COPY --chown=%[1]s:%[1]s repo/ %[2]s/\n", r.User, recipe.Workdir)
	fmt.Fprintf(&b, "RUN [\"/bin/sh\", \"-c\", %s]\n", jsonString(fmt.Sprintf("mkdir -p -m 0700 %s && cd %s && find . -mindepth 1 ! -type d -print0 >%s/tracked", p, recipe.Workdir, p)))
	fmt.Fprintf(&b, "WORKDIR %s\n", recipe.Workdir)
	fmt.Fprintf(&b, "USER %s\n", r.User)
	fmt.Fprintf(&b, "RUN %s\n", SnapshotScript())
	b.WriteString(pipDockerfile(l))
	for _, c := range r.Install {
		// Each command is one RUN in sh -c, so a multi-line command keeps
		// its meaning and a failure names its step in the build log.
		fmt.Fprintf(&b, "RUN [\"/bin/sh\", \"-c\", %s]\n", jsonString(c))
	}
	fmt.Fprintf(&b, "RUN [\"/bin/sh\", \"-c\", %s]\n", jsonString(CheckScript(recipe.Workdir, r.Imports)))
	b.WriteString("USER root\n")
	fmt.Fprintf(&b, "RUN [\"/bin/sh\", \"-c\", %s]\n", jsonString(fmt.Sprintf(
		`cp -a %[2]s %[1]s/testbed && home=$(awk -F: -v u=%[3]s '$1 == u { print $6 }' /etc/passwd) && cp -a "$home" %[1]s/home && chmod 0700 %[1]s`,
		p, recipe.Workdir, r.User)))
	fmt.Fprintf(&b, "USER %s\n", r.User)
	fmt.Fprintf(&b, "LABEL %s=env %s=%s\n", LabelLayer, LabelBase, base)
	return b.String()
}

// taskDockerfileBody is layer 3 after its FROM line: labels only, so a
// second task of the same repository and base commit costs nothing.
func taskDockerfileBody(task string) string {
	return fmt.Sprintf("LABEL %s=task %s=%s\n", LabelLayer, LabelTask, dockerQuote(task))
}

// HarborDockerfile is the three layers in one self-contained Dockerfile,
// built from a context holding repo/ (the base tree) and, when the recipe
// brings dependencies from the host, deps/ (Deps.WriteDir; nil deps means
// none). Its instructions are those of the layered images in the same
// order, so on an engine that has built the layers the classic builder's
// cache serves every step.
func HarborDockerfile(r recipe.Recipe, base, task string, deps *Deps) string {
	return "# Built by lolbench: the repository at the PR's base commit, in " + recipe.Workdir + ",\n" +
		"# with its dependencies installed. No network is needed once it is built.\n" +
		"FROM " + fromImage(r) + "\n" + baseDockerfileBody(r) + envDockerfileBody(r, base, deps.layout()) + taskDockerfileBody(task)
}

// Image names. Layer 1 is keyed by what it is built from; layer 2 by the
// project, the base commit, the tree and the recipe; layer 3 by the task.
func baseImageName(r recipe.Recipe) string {
	return BaseRepo + ":" + hash12("FROM "+fromImage(r)+"\n"+baseDockerfileBody(r))
}

// envImageName names layer 2 for spec and the dependencies planned for it.
func envImageName(spec Spec, deps *Deps) string {
	key := baseImageName(spec.Recipe) + "\n" + envDockerfileBody(spec.Recipe, spec.Base, deps.layout()) + "\n" + spec.Tree.Key()
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
	return short(base) + "-" + hash12("FROM " + fromImage(r) + "\n" + baseDockerfileBody(r) + envDockerfileBody(r, base, recipeLayout(r, false)))[:8]
}
