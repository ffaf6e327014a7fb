package sandbox

import (
	"archive/tar"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/jsonstream"
	"github.com/moby/moby/client"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

// JobDir is LOLBENCH_DIR in a container.
const JobDir = "/lolbench"

// maxCollectBytes caps what a job may hand back to the host: the test
// logs of a few runs are megabytes, a hostile test could write gigabytes.
const maxCollectBytes = 1 << 30

// cleanupTimeout bounds the kill and removal of a container. They run on a
// fresh context: cancelling a request context does not stop a container,
// and the cancelled context could not be used to stop it either.
const cleanupTimeout = 60 * time.Second

// Docker is the Docker executor. It talks to the engine through its Go
// client with API-version negotiation (the engine here speaks 1.41).
type Docker struct {
	cli *client.Client
	// network is the jobs' network mode, "none"; tests change it to show
	// that the network check can fail.
	network string
}

// NewDocker connects to the engine that DOCKER_HOST names (the local socket
// by default) and checks that it answers.
func NewDocker(ctx context.Context) (*Docker, error) {
	cli, err := client.New(client.FromEnv)
	if err != nil {
		return nil, fmt.Errorf("docker client: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := cli.Ping(pctx, client.PingOptions{NegotiateAPIVersion: true}); err != nil {
		cli.Close()
		return nil, fmt.Errorf("no Docker engine answers at %s: %w (start one, or use --executor local)", cli.DaemonHost(), err)
	}
	return &Docker{cli: cli, network: "none"}, nil
}

// Close closes the connection to the engine.
func (d *Docker) Close() error { return d.cli.Close() }

// Name implements Executor.
func (d *Docker) Name() string { return "docker" }

// Isolated implements Executor.
func (d *Docker) Isolated() bool { return true }

// Prepare implements Executor: it builds layer 1 and layer 2 unless their
// tags exist (a second task of the same repository, base commit and recipe
// reuses them as they are) and then names layer 2 for the task.
func (d *Docker) Prepare(ctx context.Context, spec Spec) (Env, error) {
	d.pruneStale(ctx)
	r := spec.Recipe
	env := &dockerEnv{d: d, spec: spec, info: EnvInfo{Executor: d.Name(), Isolated: true}}
	if spec.HarborEnv != "" {
		tag := "lolbench/harbor:" + tagPart(spec.Task)
		status(spec.Status, "building %s from %s", tag, filepath.Join(spec.HarborEnv, "Dockerfile"))
		id, err := d.build(ctx, tag, spec.LogDir, "image-harbor.log", spec.Status, func(tw *tar.Writer) error {
			return DirTree{Dir: spec.HarborEnv}.WriteTar(tw, "")
		})
		if err != nil {
			return nil, err
		}
		// Jobs run from the image id, not the tag: another workspace on
		// this engine with a task of the same id moves the tag.
		env.image, env.info.TaskImage = id, tag
		return env, nil
	}
	if spec.Tree == nil {
		return nil, errors.New("prepare: no repository tree")
	}
	spec.Tree = WithOmit(spec.Tree, r.Omit)
	goV, err := goRelease(r)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	base := baseImageName(r)
	env.info.BaseImage = base
	if _, ok, err := d.imageID(ctx, base); err != nil {
		return nil, err
	} else if !ok {
		from := fromImage(r)
		if err := d.checkOffline(ctx, from); err != nil {
			return nil, err
		}
		// The recipe's Go toolchain goes into layer 1 from the host's
		// cache (issue 31 §1), fetched now unless the build stage did.
		goroot := spec.Deps.GoRoot()
		if goV != "" && goroot == "" {
			if goroot, err = fetchGo(ctx, r, spec.LogDir, spec.Status); err != nil {
				return nil, fmt.Errorf("prepare: %w", err)
			}
		}
		what := ""
		if goV != "" {
			what = ", Go " + goV
		}
		status(spec.Status, "building layer 1 %s (from %s%s)", base, from, what)
		df := "FROM " + from + "\n" + baseDockerfileBody(r)
		if _, err := d.build(ctx, base, spec.LogDir, "image-base.log", spec.Status, func(tw *tar.Writer) error {
			if err := writeFile(tw, "Dockerfile", []byte(df), 0o644); err != nil {
				return err
			}
			if goV == "" {
				return nil
			}
			return writeToolchain(tw, "", goroot)
		}); err != nil {
			return nil, err
		}
	}
	deps := spec.Deps
	if deps == nil {
		// Planning is cheap (no download): it names layer 2, and only a
		// missing layer 2 needs the downloads.
		if deps, err = planDeps(r, spec.Tree); err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
	}
	envImg := envImageName(spec, deps)
	id, ok, err := d.imageID(ctx, envImg)
	if err != nil {
		return nil, err
	}
	if !ok && spec.Deps == nil && deps.layout().copyDeps {
		// The wheels folder may be filled now, which renames layer 2.
		if deps, err = PrepareDeps(ctx, r, spec.Tree, spec.LogDir, spec.Status); err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		defer deps.Close()
		envImg = envImageName(spec, deps)
		if id, ok, err = d.imageID(ctx, envImg); err != nil {
			return nil, err
		}
	}
	env.info.EnvImage = envImg
	if ok {
		status(spec.Status, "reusing layer 2 %s", envImg)
		env.info.EnvReused = true
	} else {
		status(spec.Status, "building layer 2 %s (repository at %s, install commands)", envImg, short(spec.Base))
		df := "FROM " + base + "\n" + envDockerfileBody(r, deps.layout())
		if id, err = d.build(ctx, envImg, spec.LogDir, "image-env.log", spec.Status, func(tw *tar.Writer) error {
			if err := writeFile(tw, "Dockerfile", []byte(df), 0o644); err != nil {
				return err
			}
			if err := deps.WriteTar(tw, ""); err != nil {
				return err
			}
			return spec.Tree.WriteTar(tw, "repo/")
		}); err != nil {
			return nil, err
		}
	}
	env.info.EnvImageID = id
	// The task's image is layer 2 under the task's name: a tag, where a
	// build of one LABEL instruction would commit a layer (seconds each,
	// see baseDockerfileBody). The Harbor Dockerfile keeps the labels.
	task := taskImageName(spec)
	if _, err := d.cli.ImageTag(ctx, client.ImageTagOptions{Source: envImg, Target: task}); err != nil {
		return nil, fmt.Errorf("tag %s as %s: %w", envImg, task, err)
	}
	// Jobs run from layer 2's id: the task's tag is a name for people,
	// which another workspace on this engine with a candidate of the same
	// id moves to its own image.
	env.image, env.info.TaskImage = id, task
	return env, nil
}

// checkOffline fails, in one line that names the command to run, when the
// image is the bundled offline base and this engine does not have it: no
// registry has it, so the build would fail on a pull.
func (d *Docker) checkOffline(ctx context.Context, image string) error {
	im := baseimage.Offline(image, os.Getenv)
	if im == nil {
		return nil
	}
	if _, ok, err := d.imageID(ctx, image); err != nil || ok {
		return err
	}
	return fmt.Errorf("the offline base image %s is missing and cannot be pulled: build it with '%s'", image, im.BuildCommand())
}

// staleAfter is the age past which a job container that is not running
// belongs to no live job: a job removes its container moments after it
// stops, so one left this long was abandoned by a killed process.
var staleAfter = 15 * time.Minute

// pruneStale removes the job containers a killed lolbench process left
// behind (SIGKILL runs no cleanup): running or not, those whose owner
// process on this host is gone (owner labels), and stopped ones created
// long ago. labels ("key=value") narrow the search.
func (d *Docker) pruneStale(ctx context.Context, labels ...string) {
	f := make(client.Filters).Add("label", append([]string{"org.lolbench.job"}, labels...)...)
	res, err := d.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return
	}
	for _, c := range res.Items {
		live := c.State == container.StateRunning || c.State == container.StatePaused || c.State == container.StateRestarting
		switch {
		case ownerGone(c.Labels):
		case live, time.Since(time.Unix(c.Created, 0)) < staleAfter:
			continue
		}
		d.cli.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	}
}

// RemoveImage removes an image and its untagged parents; a missing image
// is not an error. Benchmarks use it to measure a cold build.
func (d *Docker) RemoveImage(ctx context.Context, ref string) error {
	_, err := d.cli.ImageRemove(ctx, ref, client.ImageRemoveOptions{Force: true, PruneChildren: true})
	if err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("remove image %s: %w", ref, err)
	}
	return nil
}

// ImageID returns the id of an image, or "" when it does not exist.
func (d *Docker) ImageID(ctx context.Context, ref string) (string, error) {
	id, _, err := d.imageID(ctx, ref)
	return id, err
}

func (d *Docker) imageID(ctx context.Context, ref string) (string, bool, error) {
	res, err := d.cli.ImageInspect(ctx, ref)
	if cerrdefs.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("inspect image %s: %w", ref, err)
	}
	return res.ID, true, nil
}

// Lines of the engine's build output: buildStep starts a Dockerfile step
// (classic builder); ansiColour wraps what a step wrote to standard error.
var (
	buildStep  = regexp.MustCompile(`^Step \d+/\d+ : `)
	ansiColour = regexp.MustCompile(`\x1b\[[0-9;]*m`)
)

// buildHeartbeat is how often an image build that is still going says so
// on the status writer (issue 36 §5: layer 2 of grpc-go was silent for
// 200 s).
var buildHeartbeat = 30 * time.Second

// build builds an image from the context writeCtx writes and tags it. The
// engine reports a failed build inside the JSON stream, not as an error of
// ImageBuild, so the stream is read to its end and errorDetail checked.
// While it goes on, a line on w every buildHeartbeat says for how long and
// at which step.
func (d *Docker) build(ctx context.Context, tag, logDir, logName string, w io.Writer, writeCtx func(*tar.Writer) error) (string, error) {
	logf, err := openLog(logDir, logName)
	if err != nil {
		return "", err
	}
	defer logf.Close()
	var (
		mu    sync.Mutex
		steps stepLog
	)
	defer heartbeat(w, buildHeartbeat, func(elapsed time.Duration) string {
		mu.Lock()
		defer mu.Unlock()
		at := ""
		if steps.step != "" {
			at = ", at " + steps.step
		}
		return fmt.Sprintf("building %s: %s so far%s (log %s)", tag, elapsed.Round(time.Second), at, logf.Name())
	})()
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := writeCtx(tw)
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	res, err := d.cli.ImageBuild(ctx, pr, client.ImageBuildOptions{
		Tags:        []string{tag},
		Remove:      true,
		ForceRemove: true,
		Dockerfile:  "Dockerfile",
	})
	if err != nil {
		pr.CloseWithError(err)
		return "", fmt.Errorf("build %s: %w", tag, err)
	}
	defer res.Body.Close()
	dec := json.NewDecoder(res.Body)
	for {
		var m jsonstream.Message
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			pr.CloseWithError(err)
			return "", fmt.Errorf("build %s: reading the engine's output: %w (log %s)", tag, err, logf.Name())
		}
		if m.Stream != "" {
			io.WriteString(logf, m.Stream)
			mu.Lock()
			for _, l := range strings.Split(strings.TrimRight(m.Stream, "\n"), "\n") {
				// The engine colours a step's standard error.
				l = strings.TrimSpace(ansiColour.ReplaceAllString(l, ""))
				switch {
				case buildStep.MatchString(l):
					steps.reset()
				case !strings.HasPrefix(l, "--->") && !strings.HasPrefix(l, "Removing intermediate container"):
					steps.add(l)
				}
			}
			mu.Unlock()
		}
		if m.Status != "" {
			fmt.Fprintln(logf, m.Status)
		}
		if m.Error != nil {
			fmt.Fprintf(logf, "ERROR: %s\n", m.Error.Message)
			// A failing step's name replaces the engine's message, which
			// would quote the whole setup script.
			mu.Lock()
			defer mu.Unlock()
			return "", steps.err("build "+tag+": ", m.Error.Message, logf.Name())
		}
	}
	id, ok, err := d.imageID(ctx, tag)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("build %s: the engine reported no error but the image does not exist (log %s)", tag, logf.Name())
	}
	return id, nil
}

func writeFile(tw *tar.Writer, name string, data []byte, mode int64) error {
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: mode, ModTime: tarEpoch, Format: tar.FormatPAX}); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// dockerEnv is a prepared image; every job gets a new container from it.
type dockerEnv struct {
	d     *Docker
	spec  Spec
	image string
	info  EnvInfo
}

// Info implements Env.
func (e *dockerEnv) Info() EnvInfo { return e.info }

// Close implements Env; images stay for reuse.
func (e *dockerEnv) Close() error { return nil }

// Run implements Env. The container has no network but loopback (network
// mode none, never NetworkDisabled: that also drops the engine's
// /etc/hosts, and then "localhost" does not resolve, issue 36), the recipe's CPU,
// memory (no swap) and pids limits, no capabilities when it runs as a
// non-root user, and is killed at the job's deadline. It is always
// removed, with a fresh context, whatever happened.
func (e *dockerEnv) Run(ctx context.Context, job Job) (res *JobResult, err error) {
	if err := checkJob(job); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(job.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("job %s: %w", job.Name, err)
	}
	r := e.spec.Recipe
	lim := r.Limits
	pids := int64(lim.PIDs)
	hc := &container.HostConfig{
		NetworkMode: container.NetworkMode(e.d.network),
		Resources: container.Resources{
			NanoCPUs:   int64(lim.CPUs * 1e9),
			Memory:     int64(lim.MemoryMB) << 20,
			MemorySwap: int64(lim.MemoryMB) << 20,
			PidsLimit:  &pids,
		},
		SecurityOpt: []string{"no-new-privileges"},
	}
	user := r.User
	hc.CapDrop = []string{"ALL"}
	if job.AsRoot {
		// The verifier: root, with only the powers it needs to reset files
		// the test user owns, run the tests as that user and kill them.
		user = "root"
		hc.CapAdd = []string{"CHOWN", "DAC_OVERRIDE", "FOWNER", "KILL", "SETUID", "SETGID"}
	}
	env := append([]string{"LOLBENCH_DIR=" + JobDir, "LOLBENCH_TESTBED=" + recipe.Workdir, "LOLBENCH_ROOT="}, job.Env...)
	cfg := &container.Config{
		Image:      e.image,
		Cmd:        []string{"sh", "-c", `sh "$LOLBENCH_DIR/job.sh" >"$LOLBENCH_DIR/out/console.log" 2>&1`},
		User:       user,
		WorkingDir: recipe.Workdir,
		Env:        env,
		Labels:     jobLabels(job.Name, e.spec.Task),
	}
	suffix := make([]byte, 4)
	rand.Read(suffix)
	name := "lolbench-" + tagPart(e.spec.Task) + "-" + job.Name + "-" + hex.EncodeToString(suffix)
	created, err := e.d.cli.ContainerCreate(ctx, client.ContainerCreateOptions{Config: cfg, HostConfig: hc, Name: name})
	if err != nil {
		return nil, fmt.Errorf("job %s: create container from %s: %w", job.Name, e.image, err)
	}
	id := created.ID
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
		defer cancel()
		if _, rerr := e.d.cli.ContainerRemove(cctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true}); rerr != nil && !cerrdefs.IsNotFound(rerr) && err == nil {
			err = fmt.Errorf("job %s: remove container %s: %w", job.Name, name, rerr)
		}
	}()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(jobArchive(pw, job)) }()
	if _, err := e.d.cli.CopyToContainer(ctx, id, client.CopyToContainerOptions{DestinationPath: "/", Content: pr}); err != nil {
		pr.CloseWithError(err)
		return nil, fmt.Errorf("job %s: copy files into the container: %w", job.Name, err)
	}
	start := time.Now()
	if _, err := e.d.cli.ContainerStart(ctx, id, client.ContainerStartOptions{}); err != nil {
		return nil, fmt.Errorf("job %s: start container: %w", job.Name, err)
	}
	defer follow(ctx, e.readOut(ctx, id))()
	timeout := job.Timeout
	if timeout <= 0 {
		timeout = time.Duration(r.Limits.TimeoutSec)*time.Second + time.Minute
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	wait := e.d.cli.ContainerWait(wctx, id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	res = &JobResult{}
	select {
	case w := <-wait.Result:
		res.ExitCode = int(w.StatusCode)
		if w.Error != nil && w.Error.Message != "" {
			return nil, fmt.Errorf("job %s: container %s: %s", job.Name, name, w.Error.Message)
		}
	case werr := <-wait.Error:
		if ctx.Err() != nil {
			e.kill(id)
			return nil, fmt.Errorf("job %s: %w", job.Name, ctx.Err())
		}
		if !errors.Is(werr, context.DeadlineExceeded) && wctx.Err() == nil {
			e.kill(id)
			return nil, fmt.Errorf("job %s: wait for container %s: %w", job.Name, name, werr)
		}
		// The job's deadline: kill it, keep what it wrote.
		e.kill(id)
		res.TimedOut, res.ExitCode = true, 137
	}
	res.Duration = time.Since(start)
	cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer ccancel()
	if err := e.copyOut(cctx, id, JobDir+"/out", job.OutDir, true); err != nil {
		return nil, fmt.Errorf("job %s: %w", job.Name, err)
	}
	for _, c := range job.Collect {
		if err := e.copyOut(cctx, id, c, job.OutDir, false); err != nil && !cerrdefs.IsNotFound(err) {
			return nil, fmt.Errorf("job %s: %w", job.Name, err)
		}
	}
	return res, nil
}

// jobLabels are a job container's labels: the job, the task and its owner.
func jobLabels(job, task string) map[string]string {
	l := self.labels()
	l["org.lolbench.job"], l[LabelTask] = job, task
	return l
}

// kill stops a container with a fresh context.
func (e *dockerEnv) kill(id string) {
	cctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	e.d.cli.ContainerKill(cctx, id, client.ContainerKillOptions{Signal: "KILL"})
	w := e.d.cli.ContainerWait(cctx, id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	select {
	case <-w.Result:
	case <-w.Error:
	}
}

// copyOut copies a folder of the container into dst: its content when
// strip is set, else the folder itself under its base name.
func (e *dockerEnv) copyOut(ctx context.Context, id, src, dst string, strip bool) error {
	res, err := e.d.cli.CopyFromContainer(ctx, id, client.CopyFromContainerOptions{SourcePath: src})
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return err
		}
		return fmt.Errorf("copy %s out of the container: %w", src, err)
	}
	defer res.Content.Close()
	if strip {
		return ExtractStrip(res.Content, dst, maxCollectBytes)
	}
	return Extract(res.Content, dst, maxCollectBytes)
}

// jobArchive writes the tar that CopyToContainer unpacks at /: the job
// folder with its files and an out/ folder, the host folders of Mounts and
// empty folders for Collect. For a job run by the recipe's user the
// folders are world-writable, whatever its uid; for a root job (the
// verifier) they are root's alone, so that the tests cannot reach them.
func jobArchive(w io.Writer, job Job) error {
	tw := tar.NewWriter(w)
	dirMode, fileMode := int64(0o777), int64(0o644)
	if job.AsRoot {
		dirMode, fileMode = 0o700, 0o600
	}
	dirs := map[string]bool{}
	mkdir := func(p string) error {
		var chain []string
		for d := strings.TrimPrefix(p, "/"); d != "." && d != "" && !dirs[d]; d = path.Dir(d) {
			chain = append(chain, d)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			dirs[chain[i]] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: chain[i] + "/", Mode: dirMode, ModTime: tarEpoch, Format: tar.FormatPAX}); err != nil {
				return err
			}
		}
		return nil
	}
	jd := strings.TrimPrefix(JobDir, "/")
	if err := mkdir(JobDir + "/out"); err != nil {
		return err
	}
	if err := writeFile(tw, jd+"/job.sh", []byte(job.Script), 0o755); err != nil {
		return err
	}
	for _, name := range sortedKeys(job.Files) {
		if err := mkdir(path.Dir(JobDir + "/" + name)); err != nil {
			return err
		}
		mode := fileMode
		if job.Executables[name] {
			mode = 0o755
		}
		if err := writeFile(tw, jd+"/"+name, job.Files[name], mode); err != nil {
			return err
		}
	}
	for _, c := range job.Collect {
		if err := mkdir(c); err != nil {
			return err
		}
	}
	for _, dst := range sortedKeys(job.Mounts) {
		if err := mkdir(path.Dir(dst)); err != nil {
			return err
		}
		src := job.Mounts[dst]
		if _, err := os.Stat(src); err != nil {
			return fmt.Errorf("job %s: mount %s: %w", job.Name, src, err)
		}
		if err := (DirTree{Dir: src}).WriteTar(tw, strings.TrimPrefix(dst, "/")+"/"); err != nil {
			return fmt.Errorf("job %s: mount %s: %w", job.Name, src, err)
		}
	}
	return tw.Close()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
