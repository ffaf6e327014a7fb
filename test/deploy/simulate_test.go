package deploy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lolbench/lolbench/internal/textdiff"
	"github.com/lolbench/lolbench/pipeline/registry"
)

// The simulation runs on two of the demo's candidates (deploy/README.md,
// "The Jobs simulated with Docker"): unitconv, built and mutated, and
// tinykv's flawed mapping, rejected at validate. With 3 shards they hash to
// shard 1 and shard 0, and shard 2 has none.
const (
	built    = "unitconv-ucep-0004"
	rejected = "tinykv-flawed-tkep-0002"
	shards   = 3
)

// runFlags is LOLBENCH_RUN_FLAGS in the simulation's ConfigMap: the demo's
// flags (data/demo/demo.sh) with one test run per side and one mutant per
// operator, as test/e2e runs it, and the JSON summary to read.
const runFlags = "--offline --include-unreviewed --max-mutants-per-operator 1 --runs 1 --json"

// testImage is the tag the tests build with deploy/image.sh.
const testImage = "lolbench/lolbench:test-deploy"

// imageUID is the user of lolbench's image and of the manifests' pods.
const imageUID = 10001

// buildImage builds lolbench's image once per test binary, as make image
// does.
var buildImage = sync.OnceValues(func() (string, error) {
	cmd := exec.Command("bash", filepath.Join(root, "deploy", "image.sh"), testImage)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("deploy/image.sh: %v\n%s", err, out)
	}
	return testImage, nil
})

// engine is the Docker engine of the test and how containers reach it.
type engine struct {
	socket string // the host's socket, bind-mounted where a manifest's DOCKER_HOST names
	gid    int    // its group: the sidecar's --group=10001 stands for it
}

// needDocker skips a test that needs the engine, root and the image.
func needDocker(t *testing.T) (engine, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("Docker simulation of deploy/ (minutes); skipped with -short")
	}
	if os.Getuid() != 0 {
		t.Skip("the simulation hands its workspaces to the image's user (uid 10001): run as root, as CI does")
	}
	sock := "/var/run/docker.sock"
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		if !strings.HasPrefix(h, "unix://") {
			t.Skipf("DOCKER_HOST %s: the simulation bind-mounts the engine's unix socket", h)
		}
		sock = strings.TrimPrefix(h, "unix://")
	}
	var st syscall.Stat_t
	if err := syscall.Stat(sock, &st); err != nil {
		t.Fatalf("no Docker engine socket at %s: %v", sock, err)
	}
	img, err := buildImage()
	if err != nil {
		t.Fatal(err)
	}
	return engine{socket: sock, gid: int(st.Gid)}, img
}

// pod is one container of a simulated pod: the manifest's container, run
// with the manifest's user, environment and volumes.
type pod struct {
	name string // its hostname, as a pod's
	spec *corev1.PodSpec
	c    *corev1.Container
	env  map[string]string // set by the Job controller (JOB_COMPLETION_INDEX)
	args []string          // when set, instead of the container's args
}

// cluster is what the simulated pods share: the image, the engine, the
// workspace claim (a host folder) and the ConfigMap.
type cluster struct {
	t      *testing.T
	image  string
	engine engine
	work   string            // the claim's folder on this host
	config map[string]string // the ConfigMap the pods read
}

// result is what a pod printed and how it ended.
type result struct {
	name           string
	code           int
	stdout, stderr string
}

// dockerArgs turns a pod's container into `docker run` arguments: the
// claim is the workspace folder, DOCKER_HOST's socket is the engine's
// (where the manifest's sidecar would listen), the user and groups are the
// manifest's. The Secret is left out: no GitHub token or LLM key here.
func (cl *cluster) dockerArgs(p pod) []string {
	t := cl.t
	args := []string{"run", "--rm", "--name", p.name, "--hostname", p.name, "--label", "org.lolbench.test=deploy"}
	uid, gid, fsGroup := runAs(p.spec, p.c)
	args = append(args, "--user", fmt.Sprintf("%d:%d", uid, gid), "--group-add", strconv.Itoa(cl.engine.gid))
	if fsGroup != 0 {
		args = append(args, "--group-add", strconv.Itoa(fsGroup))
	}
	vars := map[string]string{}
	for _, e := range p.c.EnvFrom {
		if e.ConfigMapRef != nil {
			for k, v := range cl.config {
				vars[k] = v
			}
		}
	}
	for _, e := range p.c.Env {
		if e.ValueFrom != nil {
			t.Fatalf("%s: env %s: valueFrom is not simulated", p.name, e.Name)
		}
		vars[e.Name] = e.Value
	}
	for k, v := range p.env {
		vars[k] = v
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		args = append(args, "-e", k+"="+vars[k])
	}
	sock := strings.TrimPrefix(vars["DOCKER_HOST"], "unix://")
	for _, vm := range p.c.VolumeMounts {
		var vol *corev1.Volume
		for i := range p.spec.Volumes {
			if p.spec.Volumes[i].Name == vm.Name {
				vol = &p.spec.Volumes[i]
			}
		}
		switch {
		case vol == nil:
			t.Fatalf("%s: no volume %s", p.name, vm.Name)
		case vol.PersistentVolumeClaim != nil:
			args = append(args, "-v", cl.work+":"+vm.MountPath)
		case vol.EmptyDir != nil && sock != "" && filepath.Dir(sock) == vm.MountPath:
			args = append(args, "-v", cl.engine.socket+":"+sock)
		default:
			t.Fatalf("%s: volume %s at %s is not simulated", p.name, vm.Name, vm.MountPath)
		}
	}
	args = append(args, cl.image)
	if p.args != nil {
		return append(args, p.args...)
	}
	return append(append(args, p.c.Command...), p.c.Args...)
}

// run runs a pod to its end; kill, when not nil, is closed to kill it.
func (cl *cluster) run(p pod, kill <-chan struct{}) result {
	var out, errOut bytes.Buffer
	cmd := exec.Command("docker", cl.dockerArgs(p)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		cl.t.Fatal(err)
	}
	done := make(chan struct{})
	if kill != nil {
		go func() {
			select {
			case <-kill:
				// SIGKILL to every process of the pod, as a node does
				// when a pod is OOM-killed or its node fails.
				exec.Command("docker", "kill", p.name).Run()
			case <-done:
			}
		}()
	}
	err := cmd.Wait()
	close(done)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		cl.t.Fatalf("%s: %v", p.name, err)
	}
	return result{name: p.name, code: code, stdout: out.String(), stderr: errOut.String()}
}

// podName is a pod's name as Kubernetes makes it: the Job's name (and
// index), then five random characters. It is the container's name and
// hostname, so that simulations in two processes do not meet.
func podName(prefix string) string {
	const chars = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, 5)
	for i := range b {
		b[i] = chars[rand.IntN(len(chars))]
	}
	return prefix + "-" + string(b)
}

// runAs is the uid, gid and fsGroup of a container, its own settings over
// the pod's.
func runAs(pod *corev1.PodSpec, c *corev1.Container) (uid, gid, fsGroup int) {
	if s := pod.SecurityContext; s != nil {
		uid, gid, fsGroup = deref(s.RunAsUser), deref(s.RunAsGroup), deref(s.FSGroup)
	}
	if s := c.SecurityContext; s != nil {
		if s.RunAsUser != nil {
			uid = int(*s.RunAsUser)
		}
		if s.RunAsGroup != nil {
			gid = int(*s.RunAsGroup)
		}
	}
	return uid, gid, fsGroup
}

func deref(p *int64) int {
	if p == nil {
		return 0
	}
	return int(*p)
}

// demoWorkspace prepares a demo workspace as a curator uploads it to the
// claim (data/demo/demo.sh --setup-only), with the registry cut to the
// simulation's two candidates, owned by the pods' user.
func demoWorkspace(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(root, "data", "demo", "demo.sh"), "--setup-only")
	cmd.Env = append(os.Environ(), "WORK="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("demo.sh --setup-only: %v\n%s", err, out)
	}
	reg := filepath.Join(dir, "projects.yaml")
	data, err := os.ReadFile(reg)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.MapSlice
	if err := yaml.UnmarshalWithOptions(data, &doc, yaml.UseOrderedMap()); err != nil {
		t.Fatal(err)
	}
	for i, item := range doc {
		if item.Key != "projects" {
			continue
		}
		var keep []any
		for _, p := range item.Value.([]any) {
			for _, kv := range p.(yaml.MapSlice) {
				if kv.Key == "name" && (kv.Value == "unitconv" || kv.Value == "tinykv-flawed") {
					keep = append(keep, p)
				}
			}
		}
		doc[i].Value = keep
	}
	if data, err = yaml.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(reg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := registry.Load(reg)
	if err != nil {
		t.Fatalf("the cut registry: %v", err)
	}
	var names []string
	for _, p := range r.Projects {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"tinykv-flawed", "unitconv"}) {
		t.Fatalf("the cut registry has %q", names)
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, imageUID, imageUID)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// removeOrphans removes the test containers that killed pods left on the
// engine: a pod's death stops its own sidecar engine with everything in
// it, but the simulation's pods share the host's engine.
func removeOrphans(pods []string) {
	for _, name := range pods {
		out, _ := exec.Command("docker", "ps", "-aq", "--filter", "label=org.lolbench.owner.host="+name).Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			exec.Command("docker", append([]string{"rm", "-f"}, ids...)...).Run()
		}
	}
}

// summary is `lolbench run --json`'s summary: which stages of which
// candidate ran (were not up to date) and how they ended.
type summary struct {
	Candidates []struct {
		ID     string `json:"id"`
		Stages []struct {
			Stage    string `json:"stage"`
			Result   string `json:"result"`
			UpToDate bool   `json:"up_to_date"`
		} `json:"stages"`
	} `json:"candidates"`
}

// ran reads a pod's JSON summary: per candidate, "stage:result" for each
// stage that ran.
func ran(t *testing.T, r result) map[string]string {
	t.Helper()
	var s summary
	if err := json.NewDecoder(strings.NewReader(r.stdout)).Decode(&s); err != nil {
		t.Fatalf("%s: summary: %v\nstdout:\n%s\nstderr:\n%s", r.name, err, r.stdout, r.stderr)
	}
	out := map[string]string{}
	for _, c := range s.Candidates {
		var st []string
		for _, x := range c.Stages {
			if !x.UpToDate {
				st = append(st, x.Stage+":"+x.Result)
			}
		}
		out[c.ID] = strings.Join(st, " ")
	}
	return out
}

func expect(t *testing.T, r result, code int, ranWant map[string]string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.name, r.code, code, r.stdout, r.stderr)
	}
	if ranWant == nil {
		return
	}
	if got := ran(t, r); !mapsEqual(got, ranWant) {
		t.Errorf("%s ran %v, want %v", r.name, got, ranWant)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestIndexedJobSimulated runs deploy/'s three Jobs with Docker (issue 26
// §4): the collect Job, the run Job's shards in parallel on one workspace,
// each with its JOB_COMPLETION_INDEX, then the export Job, with three
// faults: shard 1 killed mid-build and retried, a second pod given index 1
// while it runs, and shard 0, whose one candidate is rejected. The
// workspace must then hold what a single-machine `lolbench run` of the same
// demo writes, byte for byte after normalize.
func TestIndexedJobSimulated(t *testing.T) {
	t.Parallel()
	eng, img := needDocker(t)
	ms := readManifests(t)
	var cm *corev1.ConfigMap
	for _, m := range ms {
		if c, ok := m.obj.(*corev1.ConfigMap); ok {
			cm = c
		}
	}
	// The ConfigMap as a demo sets it: no LLM endpoint (the LLM stages
	// skip, as in make demo), the demo's flags.
	config := map[string]string{}
	for k, v := range cm.Data {
		if !strings.HasPrefix(k, "LOLBENCH_LLM_") {
			config[k] = v
		}
	}
	if _, ok := config["LOLBENCH_RUN_FLAGS"]; !ok {
		t.Fatal("the ConfigMap has no LOLBENCH_RUN_FLAGS")
	}
	config["LOLBENCH_RUN_FLAGS"] = runFlags

	collect, runJob, export := job(ms, "collect-job.yaml"), job(ms, "run-job.yaml"), job(ms, "export-job.yaml")
	// The operator's edit for 3 shards (deploy/README.md).
	runJob.Spec.Completions, runJob.Spec.Parallelism = ptr(int32(shards)), ptr(int32(shards))
	setEnv(mainContainer(runJob), "LOLBENCH_SHARDS", strconv.Itoa(shards))
	if p := invariants(ms); len(p) > 0 {
		t.Fatalf("the edited manifests break the invariants: %v", p)
	}

	tmp := t.TempDir()
	single, sharded := filepath.Join(tmp, "single"), filepath.Join(tmp, "sharded")
	demoWorkspace(t, single)
	demoWorkspace(t, sharded)
	var podNames []string
	var mu sync.Mutex
	named := func(name string) string {
		mu.Lock()
		defer mu.Unlock()
		podNames = append(podNames, name)
		return name
	}
	t.Cleanup(func() { removeOrphans(podNames) })

	// The single-machine run, beside the simulation: the run Job's
	// container (user, engine, claim, ConfigMap) running the whole demo
	// as make demo does, then the report.
	ref := &cluster{t: t, image: img, engine: eng, work: single, config: config}
	refDone := make(chan result, 1)
	go func() {
		refDone <- ref.run(pod{name: named(podName("lolbench-single")), spec: &runJob.Spec.Template.Spec, c: mainContainer(runJob),
			args: []string{"sh", "-c", `lolbench run --workspace /work --projects /work/projects.yaml --executor docker $LOLBENCH_RUN_FLAGS; status=$?; lolbench report --workspace /work >/dev/null && exit $status`}}, nil)
	}()

	cl := &cluster{t: t, image: img, engine: eng, work: sharded, config: config}
	podOf := func(j *batchv1.Job, name string) pod {
		return pod{name: named(name), spec: &j.Spec.Template.Spec, c: mainContainer(j)}
	}
	start := time.Now()
	expect(t, cl.run(podOf(collect, podName("lolbench-collect")), nil), 0, nil)
	t.Logf("collect Job: %s", time.Since(start).Round(time.Second))

	// The run Job: every index at once, each retried up to
	// backoffLimitPerIndex times after a failure, as Kubernetes does.
	retries := int(*runJob.Spec.BackoffLimitPerIndex)
	names := make([][]string, shards)
	for i := range names {
		for a := 0; a <= retries; a++ {
			names[i] = append(names[i], podName(fmt.Sprintf("lolbench-run-%d", i)))
		}
	}
	attempts := make([][]result, shards)
	kill := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < shards; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := 0; a <= retries; a++ {
				p := podOf(runJob, names[i][a])
				p.env = map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i)}
				var k <-chan struct{}
				if i == 1 && a == 0 {
					k = kill
				}
				r := cl.run(p, k)
				attempts[i] = append(attempts[i], r)
				if r.code == 0 {
					return
				}
			}
		}()
	}
	// Fault 1: shard 1 is killed two seconds into its candidate's build.
	waitFor(t, filepath.Join(sharded, "candidates", built, "build"), "")
	time.Sleep(2 * time.Second)
	close(kill)
	// Fault 2: while the retry of shard 1 runs, a second pod gets index 1
	// (a replaced pod whose node stopped answering, still at work).
	lock := filepath.Join(sharded, "locks", "run-shard-1-of-3.lock")
	waitFor(t, lock, " on "+names[1][1]+" since ")
	dup := podOf(runJob, podName("lolbench-run-1"))
	dup.env = map[string]string{"JOB_COMPLETION_INDEX": "1"}
	dupResult := cl.run(dup, nil)
	wg.Wait()
	t.Logf("run Job: %s", time.Since(start).Round(time.Second))

	wantLock := regexp.MustCompile(`(?m)^lolbench: the workspace is in use by another lolbench run: /work is locked by pid \d+ on ` + names[1][1] + ` since \S+ \(/work/locks/run-shard-1-of-3\.lock\); wait for it to finish, or run another shard$`)
	if dupResult.code != 2 || !wantLock.MatchString(dupResult.stderr) {
		t.Errorf("the second pod with index 1: exit %d, stderr:\n%s\nwant exit 2 and the lock's message", dupResult.code, dupResult.stderr)
	}
	// Fault 3: shard 0's one candidate is rejected: its pod succeeds (a
	// rejection is a result, recorded in the workspace) and says so.
	if len(attempts[0]) != 1 {
		t.Fatalf("shard 0 took %d attempts", len(attempts[0]))
	}
	expect(t, attempts[0][0], 0, map[string]string{rejected: "map:skipped validate:rejected"})
	if want := "shard 0/3: some candidates were rejected; lolbench status lists them\n"; !strings.HasSuffix(attempts[0][0].stderr, want) {
		t.Errorf("shard 0's stderr ends %q, want %q", tail(attempts[0][0].stderr), want)
	}
	// The killed shard's retry finishes the interrupted build and what
	// follows; what the killed pod finished stays done.
	if len(attempts[1]) != 2 {
		t.Fatalf("shard 1 took %d attempts, want the killed one and its retry", len(attempts[1]))
	}
	if r := attempts[1][0]; r.code != 137 {
		t.Errorf("the killed pod of shard 1 ended with exit %d, want 137 (SIGKILL)\n%s", r.code, r.stderr)
	}
	expect(t, attempts[1][1], 0, map[string]string{built: "build:passed mutate:passed augment:skipped"})
	if len(attempts[2]) != 1 {
		t.Fatalf("shard 2 took %d attempts", len(attempts[2]))
	}
	expect(t, attempts[2][0], 0, map[string]string{})

	// The export Job reports every candidate, the rejected one with its reason.
	exp := cl.run(podOf(export, podName("lolbench-export")), nil)
	expect(t, exp, 0, map[string]string{})
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^` + rejected + ` +- +rejected at validate +- +10 static-rule violations \(R07, R08, R10, R12, R18, R20, R22, R24, R27, R28\)$`),
		regexp.MustCompile(`(?m)^` + built + ` +mutate +passed +7/7 +augment skipped: no LLM endpoint configured`),
	} {
		if !want.MatchString(exp.stdout) {
			t.Errorf("the export Job's output lacks %s:\n%s", want, exp.stdout)
		}
	}
	t.Logf("export Job: %s", time.Since(start).Round(time.Second))

	r := <-refDone
	t.Logf("single-machine run, beside the Jobs: done at %s", time.Since(start).Round(time.Second))
	expect(t, r, 1, map[string]string{rejected: "map:skipped validate:rejected",
		built: "map:skipped validate:passed audit:skipped rank:skipped review:skipped build:passed mutate:passed augment:skipped"})

	got, want := artifacts(t, sharded), artifacts(t, single)
	if len(want) < 50 {
		t.Fatalf("the single-machine run wrote only %d files", len(want))
	}
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok {
			problems = append(problems, "missing "+k)
		} else if g != want[k] {
			problems = append(problems, "differs "+k+": "+textdiff.First(g, want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			problems = append(problems, "extra "+k)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d files equal after normalization", len(want)-len(problems))
}

// waitFor waits until path exists and, when text is set, holds it.
func waitFor(t *testing.T, path, text string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), text) || err != nil && text == "" && !errors.Is(err, fs.ErrNotExist) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s never held %q", path, text)
}

func tail(s string) string {
	if len(s) > 300 {
		return s[len(s)-300:]
	}
	return s
}

// What a run writes that is a measurement, not a result (deploy/README.md,
// "The Jobs simulated with Docker", lists them):
var (
	// when a stage finished (status.json) or a page's stage ran (report);
	rfc3339    = regexp.MustCompile(`"finished": "[0-9T:.+Z-]+"`)
	reportTime = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC`)
	// how long a test run took (build.json);
	durationNS = regexp.MustCompile(`"duration_ns": [0-9]+`)
	// whether the engine had layer 2 already (build.json): the first of
	// the two runs to need it builds it;
	envReused = regexp.MustCompile(`"env_reused": (true|false)`)
	// and the fingerprints of mutate and augment (status.json), which hash
	// build.json and so the two above.
	laterFingerprint = regexp.MustCompile(`("(?:mutate|augment)": \{[^}]*"fingerprint": )"[0-9a-f]+"`)
)

// normalize blanks the measurements of one file.
func normalize(rel, text string) string {
	switch {
	case filepath.Base(rel) == "status.json":
		text = rfc3339.ReplaceAllString(text, `"finished": "T"`)
		text = laterFingerprint.ReplaceAllString(text, `$1"F"`)
	case strings.HasPrefix(rel, "reports/"):
		text = reportTime.ReplaceAllString(text, "T")
	}
	text = durationNS.ReplaceAllString(text, `"duration_ns": 0`)
	return envReused.ReplaceAllString(text, `"env_reused": ?`)
}

// artifacts reads what a run writes: candidates/, export/ and reports/,
// normalized, without the raw logs (logs/ and logs-plain/ folders: test
// output and image builds, with times, addresses, container ids and which
// images were built). The
// inputs (repos/, eps/, curated/, projects.yaml) and locks/ are not
// results.
func artifacts(t *testing.T, work string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{"candidates", "export", "reports"} {
		err := filepath.WalkDir(filepath.Join(work, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(work, p)
			if d.IsDir() {
				if d.Name() == "logs" || d.Name() == "logs-plain" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.Contains(d.Name(), ".tmp-") {
				t.Errorf("a temporary file was left behind: %s", rel)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = normalize(filepath.ToSlash(rel), string(data))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestEngineSidecar starts run-job.yaml's engine sidecar as the manifest
// has it (this image's dockerd on a socket in a volume shared with the
// lolbench container), waits for its startup probe, and then, from the
// lolbench container with the manifest's user, environment and volumes,
// has lolbench's own client reach the engine and the engine run a
// container without network. The simulated shards reach the host's engine
// on the same socket path instead: a sidecar of their own would rebuild
// every image from nothing, minutes per shard.
func TestEngineSidecar(t *testing.T) {
	t.Parallel()
	_, img := needDocker(t)
	ms := readManifests(t)
	spec := &job(ms, "run-job.yaml").Spec.Template.Spec
	sidecar := engineSidecar(spec)
	main := mainContainer(job(ms, "run-job.yaml"))
	if sidecar == nil || main == nil {
		t.Fatal("run-job.yaml has no engine sidecar or no lolbench container")
	}
	name := fmt.Sprintf("lolbench-engine-%d", os.Getpid())
	tmp := t.TempDir()
	args := []string{"run", "-d", "--name", name, "--label", "org.lolbench.test=deploy", "--user", "0"}
	// privileged: true. Docker's --privileged also grants capabilities the
	// engine of this machine lacks (CAP_SYS_RESOURCE is not in its bounding
	// set), so the sidecar gets every capability the engine has, no
	// seccomp or AppArmor profile and writable cgroups: what dockerd needs
	// of privileged.
	if p := sidecar.SecurityContext.Privileged; p == nil || !*p {
		t.Fatal("the engine sidecar is not privileged")
	}
	args = append(args, "--cap-add", "ALL", "--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined", "-v", "/sys/fs/cgroup:/sys/fs/cgroup:rw")
	for _, c := range missingCapabilities(t) {
		args = append(args, "--cap-drop", c)
	}
	vols := map[string]string{}
	for _, vm := range sidecar.VolumeMounts {
		dir := filepath.Join(tmp, vm.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		vols[vm.Name] = dir
		args = append(args, "-v", dir+":"+vm.MountPath)
	}
	args = append(append(args, img), sidecar.Args...)
	if out, err := exec.Command("docker", args...).CombinedOutput(); err != nil {
		t.Fatalf("start the sidecar: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", name).Run() })

	// The startup probe, as the kubelet runs it.
	probe := sidecar.StartupProbe
	ready := false
	for i := int32(0); i < probe.FailureThreshold && !ready; i++ {
		ready = exec.Command("docker", append([]string{"exec", name}, probe.Exec.Command...)...).Run() == nil
		if !ready {
			time.Sleep(time.Duration(probe.PeriodSeconds) * time.Second)
		}
	}
	if !ready {
		logs, _ := exec.Command("docker", "logs", "--tail", "30", name).CombinedOutput()
		t.Fatalf("the engine sidecar never passed its startup probe:\n%s", logs)
	}

	// The lolbench container: lolbench's client pings the engine (a run
	// with --executor docker stops at once when none answers), then the
	// engine runs an image made from a static binary, as uid 10001
	// through the socket's group.
	uid, gid, fsGroup := runAs(spec, main)
	margs := []string{"run", "--rm", "--label", "org.lolbench.test=deploy", "--user", fmt.Sprintf("%d:%d", uid, gid), "--group-add", strconv.Itoa(fsGroup),
		"-e", "DOCKER_HOST=" + env(main, "DOCKER_HOST")}
	for _, vm := range main.VolumeMounts {
		if dir, ok := vols[vm.Name]; ok {
			margs = append(margs, "-v", dir+":"+vm.MountPath)
		}
	}
	script := `set -e
mkdir /tmp/w
lolbench run --workspace /tmp/w --executor docker --to map >/dev/null
mkdir /tmp/img && cp /usr/local/bin/lolbench-grade /tmp/img/
tar -C /tmp/img -c . | docker import - probe:1 >/dev/null
docker run --rm --network none probe:1 /lolbench-grade 2>&1 | head -n 1`
	margs = append(margs, img, "sh", "-c", script)
	out, err := exec.Command("docker", margs...).CombinedOutput()
	if err != nil || string(out) != "usage:\n" {
		t.Fatalf("the lolbench container with the sidecar's engine: %v\n%s", err, out)
	}
}

// missingCapabilities lists the capabilities Docker's privileged mode asks
// for that this host's bounding set lacks.
func missingCapabilities(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^CapBnd:\s+([0-9a-f]+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no CapBnd in /proc/self/status")
	}
	bnd, _ := strconv.ParseUint(string(m[1]), 16, 64)
	// The capabilities up to CAP_CHECKPOINT_RESTORE (40), by number.
	names := []string{"CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID", "SETPCAP", "LINUX_IMMUTABLE",
		"NET_BIND_SERVICE", "NET_BROADCAST", "NET_ADMIN", "NET_RAW", "IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE",
		"SYS_PACCT", "SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD", "LEASE", "AUDIT_WRITE",
		"AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG", "WAKE_ALARM", "BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE"}
	var missing []string
	for i, n := range names {
		if bnd&(1<<i) == 0 {
			missing = append(missing, n)
		}
	}
	return missing
}
