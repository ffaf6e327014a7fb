package sandbox

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

// countContainers counts the containers of a task, in any state unless
// states are given.
func countContainers(t *testing.T, d *Docker, task string, states ...string) int {
	t.Helper()
	f := make(client.Filters).Add("label", LabelTask+"="+task)
	for _, s := range states {
		f = f.Add("status", s)
	}
	res, err := d.cli.ContainerList(context.Background(), client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Items)
}

func assertNoContainers(t *testing.T, d *Docker, task string) {
	t.Helper()
	if n := countContainers(t, d, task); n != 0 {
		t.Fatalf("%d container(s) of task %s left behind", n, task)
	}
}

// TestDockerPrunesAbandonedContainers: a stopped job container left by a
// killed process is removed by the next Prepare once it is old enough, and
// a young one is left alone (its job may still be collecting it).
func TestDockerPrunesAbandonedContainers(t *testing.T) {
	d := needDocker(t)
	validateSample(t, d, "unitconv")
	ctx := context.Background()
	created, err := d.cli.ContainerCreate(ctx, client.ContainerCreateOptions{
		Config: &container.Config{Image: testBaseImage, Cmd: []string{"true"},
			Labels: map[string]string{"org.lolbench.job": "abandoned", LabelTask: "abandoned-task"}},
		HostConfig: &container.HostConfig{NetworkMode: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.cli.ContainerRemove(ctx, created.ID, client.ContainerRemoveOptions{Force: true})
	d.pruneStale(ctx, LabelTask+"=abandoned-task")
	if countContainers(t, d, "abandoned-task") != 1 {
		t.Fatal("a young container was pruned")
	}
	// Only this test's container is looked at: other test binaries may
	// have stopped containers they are collecting right now.
	old := staleAfter
	staleAfter = 0
	defer func() { staleAfter = old }()
	d.pruneStale(ctx, LabelTask+"=abandoned-task")
	assertNoContainers(t, d, "abandoned-task")
}

// deadPID returns the id of a process that has just exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// The owner labels: a container is orphaned when its owner process on this
// host is gone, or its PID now belongs to a younger process; this
// process's own containers, another host's and unlabelled ones are not.
func TestOwnerGone(t *testing.T) {
	mine := self.labels()
	dead := self.labels()
	dead[LabelOwnerPID] = strconv.Itoa(deadPID(t))
	reused := self.labels()
	reused[LabelOwnerStart] = "1"
	elsewhere := self.labels()
	elsewhere[LabelOwnerHost] = "another-host"
	elsewhere[LabelOwnerPID] = dead[LabelOwnerPID]
	for name, c := range map[string]struct {
		labels map[string]string
		gone   bool
	}{
		"mine": {mine, false}, "dead": {dead, true}, "reused pid": {reused, true},
		"another host": {elsewhere, false}, "no labels": {map[string]string{"org.lolbench.job": "x"}, false},
		"bad pid": {map[string]string{LabelOwnerHost: self.host, LabelOwnerPID: "x"}, false},
	} {
		if got := ownerGone(c.labels); got != c.gone {
			t.Errorf("%s: ownerGone = %v, want %v", name, got, c.gone)
		}
	}
	if self.start == "" || self.run == "" || self.pid != strconv.Itoa(os.Getpid()) {
		t.Errorf("self %+v", self)
	}
}

// TestDockerStopsOrphanedContainers: a running job container whose owner
// process is gone (a run killed with SIGKILL) is stopped and removed by
// the next Prepare, at once; a running one of a live owner is left alone.
func TestDockerStopsOrphanedContainers(t *testing.T) {
	d := needDocker(t)
	validateSample(t, d, "unitconv")
	ctx := context.Background()
	run := func(labels map[string]string) string {
		labels["org.lolbench.job"], labels[LabelTask] = "orphan", "orphan-task"
		created, err := d.cli.ContainerCreate(ctx, client.ContainerCreateOptions{
			Config:     &container.Config{Image: testBaseImage, Cmd: []string{"sleep", "600"}, Labels: labels},
			HostConfig: &container.HostConfig{NetworkMode: "none"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.cli.ContainerRemove(ctx, created.ID, client.ContainerRemoveOptions{Force: true}) })
		if _, err := d.cli.ContainerStart(ctx, created.ID, client.ContainerStartOptions{}); err != nil {
			t.Fatal(err)
		}
		return created.ID
	}
	// The live owner's container first: any Prepare on this engine (another
	// test package's, in a parallel go test) removes the orphan as soon as
	// it exists, and must never remove the live one.
	live := run(self.labels())
	orphan := self.labels()
	orphan[LabelOwnerPID] = strconv.Itoa(deadPID(t))
	run(orphan)
	d.pruneStale(ctx, LabelTask+"=orphan-task")
	// When another Prepare removes the orphan at the same moment, this
	// prune's removal fails ("already in progress") and the engine still
	// lists the container for a moment: wait for the removal to land.
	var items []container.Summary
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		res, err := d.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: make(client.Filters).Add("label", LabelTask+"=orphan-task")})
		if err != nil {
			t.Fatal(err)
		}
		items = res.Items
		if len(items) <= 1 || time.Now().After(deadline) {
			break
		}
	}
	if len(items) != 1 || items[0].ID != live || items[0].State != container.StateRunning {
		t.Fatalf("after pruning: %+v, want only the live owner's running container", items)
	}
}
