package sandbox

import (
	"context"
	"testing"

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
