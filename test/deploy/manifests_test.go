// Package deploy tests deploy/, the Kubernetes manifests of a sharded run
// (issue 26): every manifest decoded strictly with the Kubernetes API types,
// the invariants deploy/README.md states, and the three Jobs simulated with
// Docker on lolbench's own image (simulate_test.go). evalscale_test.go
// measures `lolbench eval --jobs` on a Harbor job folder of 2,800 trials.
package deploy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

var root = func() string { r, _ := filepath.Abs("../.."); return r }()

// decoder decodes YAML into the Kubernetes API types and rejects what the
// API server would: unknown and duplicate fields, wrong types, unknown kinds.
var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{batchv1.AddToScheme, corev1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// manifest is one object of a file of deploy/.
type manifest struct {
	file string // base name
	line int    // line of its document's first field
	obj  runtime.Object
}

func (m manifest) String() string {
	return fmt.Sprintf("%s:%d", m.file, m.line)
}

// decodeFile decodes every document of a multi-document YAML file.
func decodeFile(name string, data []byte) ([]manifest, error) {
	var out []manifest
	lines := strings.SplitAfter(string(data), "\n")
	start := 0
	flush := func(end int) error {
		doc := strings.Join(lines[start:end], "")
		// A document's line is its first that is neither blank nor a comment.
		first := start + 1
		for i := start; i < end && strings.TrimSpace(stripComments(lines[i])) == ""; i++ {
			first = i + 2
		}
		start = end + 1
		if strings.TrimSpace(stripComments(doc)) == "" {
			return nil
		}
		obj, _, err := decoder.Decode([]byte(doc), nil, nil)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, first, err)
		}
		out = append(out, manifest{file: name, line: first, obj: obj})
		return nil
	}
	for i, l := range lines {
		if strings.TrimRight(l, "\r\n") == "---" {
			if err := flush(i); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(len(lines)); err != nil {
		return nil, err
	}
	return out, nil
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// readManifests decodes every deploy/*.yaml.
func readManifests(t *testing.T) []manifest {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "deploy", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/: %v", err)
	}
	var all []manifest
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := decodeFile(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ms...)
	}
	return all
}

func TestManifestsDecodeStrictly(t *testing.T) {
	var got []string
	for _, m := range readManifests(t) {
		var kind, name string
		switch o := m.obj.(type) {
		case *batchv1.Job:
			kind, name = "Job", o.Name
		case *corev1.PersistentVolumeClaim:
			kind, name = "PersistentVolumeClaim", o.Name
		case *corev1.ConfigMap:
			kind, name = "ConfigMap", o.Name
		default:
			t.Errorf("%s: unexpected %T", m, m.obj)
		}
		got = append(got, fmt.Sprintf("%s %s %s", m, kind, name))
	}
	want := []string{
		"collect-job.yaml:2 Job lolbench-collect",
		"export-job.yaml:3 Job lolbench-export",
		"run-job-remote-engine.yaml:6 Job lolbench-run",
		"run-job.yaml:6 Job lolbench-run",
		"workspace-pvc.yaml:3 PersistentVolumeClaim lolbench-workspace",
		"workspace-pvc.yaml:13 ConfigMap lolbench",
	}
	if !slices.Equal(got, want) {
		t.Errorf("manifests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStrictDecodingRejectsMistakes shows that the decoder would catch the
// typos an operator makes: each case edits run-job.yaml once.
func TestStrictDecodingRejectsMistakes(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join(root, "deploy", "run-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new, want string
	}{
		{"misspelt field", "completionMode: Indexed", "completionsMode: Indexed", `strict decoding error: unknown field "spec.completionsMode"`},
		{"field at the wrong level", "      restartPolicy: Never", "      restartPolicy: Never\n      backoffLimit: 3", `strict decoding error: unknown field "spec.template.spec.backoffLimit"`},
		{"duplicate field", "  parallelism: 8", "  parallelism: 8\n  parallelism: 4", `"parallelism" already set in map`},
		{"wrong type", "parallelism: 8", `parallelism: "8"`, "cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32"},
		{"unknown kind", "kind: Job", "kind: Jobs", `no kind "Jobs" is registered for version "batch/v1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Contains(orig, []byte(tt.old)) {
				t.Fatalf("run-job.yaml lacks %q", tt.old)
			}
			data := bytes.Replace(orig, []byte(tt.old), []byte(tt.new), 1)
			_, err := decodeFile("run-job.yaml", data)
			if err == nil || !strings.HasPrefix(err.Error(), "run-job.yaml:6: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want run-job.yaml:6: ... %s", err, tt.want)
			}
		})
	}
}

func TestInvariants(t *testing.T) {
	if problems := invariants(readManifests(t)); len(problems) > 0 {
		t.Errorf("deploy/ breaks its invariants:\n%s", strings.Join(problems, "\n"))
	}
}

// TestInvariantsCatchBreaks edits the decoded manifests one way at a time
// and expects exactly the problem that edit makes.
func TestInvariantsCatchBreaks(t *testing.T) {
	tests := []struct {
		name string
		edit func(ms []manifest)
		want []string
	}{
		{"parallelism differs", func(ms []manifest) { job(ms, "run-job.yaml").Spec.Parallelism = ptr(int32(4)) },
			[]string{"run-job.yaml:6: completions 8, parallelism 4 and LOLBENCH_SHARDS 8 must be equal"}},
		{"LOLBENCH_SHARDS differs", func(ms []manifest) {
			setEnv(mainContainer(job(ms, "run-job-remote-engine.yaml")), "LOLBENCH_SHARDS", "6")
		},
			[]string{"run-job-remote-engine.yaml:6: completions 8, parallelism 8 and LOLBENCH_SHARDS 6 must be equal"}},
		{"not indexed", func(ms []manifest) { job(ms, "run-job.yaml").Spec.CompletionMode = nil },
			[]string{"run-job.yaml:6: completionMode must be Indexed"}},
		{"another claim", func(ms []manifest) {
			job(ms, "export-job.yaml").Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName = "scratch"
		}, []string{`export-job.yaml:3: claims "scratch"; every Job must claim the workspace "lolbench-workspace"`}},
		{"another image", func(ms []manifest) {
			job(ms, "run-job.yaml").Spec.Template.Spec.InitContainers[0].Image = "docker:27-dind"
		}, []string{`run-job.yaml:6: container engine runs "docker:27-dind"; every container must run the same image, "lolbench/lolbench:VERSION"`}},
		{"host socket", func(ms []manifest) {
			s := &job(ms, "run-job.yaml").Spec.Template.Spec
			s.Volumes = append(s.Volumes, corev1.Volume{Name: "docker", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/run/docker.sock"}}})
		}, []string{`run-job.yaml:6: volume "docker" mounts the node's /var/run/docker.sock (hostPath): root on the node for every pod`}},
		{"socket outside the shared volume", func(ms []manifest) {
			setEnv(mainContainer(job(ms, "run-job.yaml")), "DOCKER_HOST", "unix:///var/run/docker.sock")
		}, []string{`run-job.yaml:6: DOCKER_HOST unix:///var/run/docker.sock: the engine sidecar must listen there, in a volume both containers mount`}},
		{"fallback to the local executor", func(ms []manifest) {
			c := mainContainer(job(ms, "run-job.yaml"))
			c.Args[2] = strings.Replace(c.Args[2], "--executor docker", "", 1)
		}, []string{"run-job.yaml:6: the shard must run lolbench run --shard \"$JOB_COMPLETION_INDEX/$LOLBENCH_SHARDS\" with --executor docker (never the local executor's fallback)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := readManifests(t)
			tt.edit(ms)
			if got := invariants(ms); !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// job returns the Job of a file.
func job(ms []manifest, file string) *batchv1.Job {
	for _, m := range ms {
		if j, ok := m.obj.(*batchv1.Job); ok && m.file == file {
			return j
		}
	}
	panic("no Job in " + file)
}

// mainContainer is a Job's container named lolbench.
func mainContainer(j *batchv1.Job) *corev1.Container {
	for i := range j.Spec.Template.Spec.Containers {
		if c := &j.Spec.Template.Spec.Containers[i]; c.Name == "lolbench" {
			return c
		}
	}
	return nil
}

func env(c *corev1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func setEnv(c *corev1.Container, name, value string) {
	for i := range c.Env {
		if c.Env[i].Name == name {
			c.Env[i].Value = value
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: name, Value: value})
}

// shardArgs is what a run Job's shard must run: its own index of
// LOLBENCH_SHARDS, on the Docker engine.
const shardArgs = `--executor docker --jobs 2 --shard "$JOB_COMPLETION_INDEX/$LOLBENCH_SHARDS"`

// invariants checks what deploy/README.md ("Invariants") promises, and
// returns one line per broken promise, sorted.
func invariants(ms []manifest) []string {
	var problems []string
	bad := func(m manifest, format string, args ...any) {
		problems = append(problems, m.String()+": "+fmt.Sprintf(format, args...))
	}
	var claim, configMap string
	for _, m := range ms {
		switch o := m.obj.(type) {
		case *corev1.PersistentVolumeClaim:
			claim = o.Name
			if !slices.Contains(o.Spec.AccessModes, corev1.ReadWriteMany) {
				bad(m, "the workspace claim must be ReadWriteMany: every pod writes to it")
			}
		case *corev1.ConfigMap:
			configMap = o.Name
		}
	}
	image := ""
	for _, m := range ms {
		j, ok := m.obj.(*batchv1.Job)
		if !ok {
			continue
		}
		pod := &j.Spec.Template.Spec
		for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
			if image == "" {
				image = c.Image
			}
			if c.Image != image {
				bad(m, "container %s runs %q; every container must run the same image, %q", c.Name, c.Image, image)
			}
			for _, e := range c.EnvFrom {
				if e.ConfigMapRef != nil && e.ConfigMapRef.Name != configMap {
					bad(m, "container %s reads ConfigMap %q; the one defined is %q", c.Name, e.ConfigMapRef.Name, configMap)
				}
			}
		}
		claims := 0
		for _, v := range pod.Volumes {
			if v.HostPath != nil {
				bad(m, "volume %q mounts the node's %s (hostPath): root on the node for every pod", v.Name, v.HostPath.Path)
			}
			if v.PersistentVolumeClaim != nil {
				claims++
				if v.PersistentVolumeClaim.ClaimName != claim {
					bad(m, "claims %q; every Job must claim the workspace %q", v.PersistentVolumeClaim.ClaimName, claim)
				}
			}
		}
		if claims != 1 {
			bad(m, "mounts %d claims; every Job mounts the workspace claim once", claims)
		}
		c := mainContainer(j)
		if c == nil {
			bad(m, "no container named lolbench")
			continue
		}
		if sc := effectiveNonRoot(pod, c); !sc {
			bad(m, "container lolbench must run as a non-root user (runAsNonRoot)")
		}
		if j.Name != "lolbench-run" {
			if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
				bad(m, "only the run Job is indexed")
			}
			continue
		}
		problems = append(problems, runJobInvariants(m, j, c)...)
	}
	sort.Strings(problems)
	return problems
}

// runJobInvariants checks a run Job: indexed, n shards everywhere, one
// retry budget per index, and a Docker engine of its own (a sidecar on a
// shared socket) or a remote one over TLS, never the node's socket.
func runJobInvariants(m manifest, j *batchv1.Job, c *corev1.Container) []string {
	var problems []string
	bad := func(format string, args ...any) {
		problems = append(problems, m.String()+": "+fmt.Sprintf(format, args...))
	}
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		bad("completionMode must be Indexed")
	}
	n := func(p *int32) string {
		if p == nil {
			return "unset"
		}
		return fmt.Sprint(*p)
	}
	if shards := env(c, "LOLBENCH_SHARDS"); n(s.Completions) != n(s.Parallelism) || n(s.Parallelism) != shards {
		bad("completions %s, parallelism %s and LOLBENCH_SHARDS %s must be equal", n(s.Completions), n(s.Parallelism), shards)
	}
	if s.BackoffLimitPerIndex == nil || s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		bad("a failed shard is retried on its own: backoffLimitPerIndex with restartPolicy Never")
	}
	if len(c.Args) != 3 || !strings.Contains(c.Args[2], "lolbench run --workspace /work --from map --to augment "+shardArgs) {
		bad("the shard must run lolbench run --shard \"$JOB_COMPLETION_INDEX/$LOLBENCH_SHARDS\" with --executor docker (never the local executor's fallback)")
	}
	host := env(c, "DOCKER_HOST")
	switch {
	case strings.HasPrefix(host, "unix://"):
		sock := strings.TrimPrefix(host, "unix://")
		sidecar := engineSidecar(&s.Template.Spec)
		if sidecar == nil || !slices.Contains(sidecar.Args, "--host="+host) || sharedVolume(&s.Template.Spec, sidecar, c, filepath.Dir(sock)) == "" {
			bad("DOCKER_HOST %s: the engine sidecar must listen there, in a volume both containers mount", host)
		}
	case strings.HasPrefix(host, "tcp://"):
		if env(c, "DOCKER_TLS_VERIFY") != "1" || env(c, "DOCKER_CERT_PATH") == "" || !mountsSecret(&s.Template.Spec, c, env(c, "DOCKER_CERT_PATH")) {
			bad("DOCKER_HOST %s: a remote engine is reached over TLS (DOCKER_TLS_VERIFY=1, DOCKER_CERT_PATH a mounted Secret)", host)
		}
	default:
		bad("DOCKER_HOST %q: a sidecar's unix socket or a remote engine's tcp address", host)
	}
	return problems
}

// engineSidecar is the native sidecar (an init container that keeps
// running) that runs dockerd, ready once its startup probe passes.
func engineSidecar(pod *corev1.PodSpec) *corev1.Container {
	for i := range pod.InitContainers {
		c := &pod.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways &&
			len(c.Args) > 0 && c.Args[0] == "dockerd" && c.StartupProbe != nil {
			return c
		}
	}
	return nil
}

// sharedVolume is the volume both containers mount at dir, or "".
func sharedVolume(pod *corev1.PodSpec, a, b *corev1.Container, dir string) string {
	at := func(c *corev1.Container) string {
		for _, vm := range c.VolumeMounts {
			if vm.MountPath == dir {
				return vm.Name
			}
		}
		return ""
	}
	if v := at(a); v != "" && v == at(b) {
		for _, vol := range pod.Volumes {
			if vol.Name == v && vol.EmptyDir != nil {
				return v
			}
		}
	}
	return ""
}

func mountsSecret(pod *corev1.PodSpec, c *corev1.Container, dir string) bool {
	for _, vm := range c.VolumeMounts {
		for _, v := range pod.Volumes {
			if vm.MountPath == dir && vm.Name == v.Name && v.Secret != nil {
				return true
			}
		}
	}
	return false
}

// effectiveNonRoot reports whether a container runs with runAsNonRoot, its
// own setting or else the pod's.
func effectiveNonRoot(pod *corev1.PodSpec, c *corev1.Container) bool {
	if c.SecurityContext != nil && c.SecurityContext.RunAsNonRoot != nil {
		return *c.SecurityContext.RunAsNonRoot
	}
	return pod.SecurityContext != nil && pod.SecurityContext.RunAsNonRoot != nil && *pod.SecurityContext.RunAsNonRoot
}
