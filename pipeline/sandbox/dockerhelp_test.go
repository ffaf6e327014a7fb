package sandbox

import (
	"context"
	"testing"

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
