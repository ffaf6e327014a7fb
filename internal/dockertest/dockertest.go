// Package dockertest gives Docker tests outside pipeline/sandbox the engine
// and the offline base image, the same way everywhere: a test skips,
// visibly, when no engine answers, and fails when the engine answers but
// the base image is missing (make test builds it; a skip would hide that).
package dockertest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/sandbox"
)

var (
	once    sync.Once
	docker  *sandbox.Docker
	err     error
	missing bool
)

// Executor returns the Docker executor shared by the tests of one binary.
func Executor(t testing.TB) *sandbox.Docker {
	t.Helper()
	once.Do(func() {
		docker, err = sandbox.NewDocker(context.Background())
		if err != nil {
			return
		}
		tag := baseimage.Tag(os.Getenv)
		var id string
		if id, err = docker.ImageID(context.Background(), tag); err == nil && id == "" {
			missing = true
			err = fmt.Errorf("the engine answers but has no offline base image %s: run '%s' (make test does)", tag, baseimage.BuildCommand)
		}
	})
	if missing {
		t.Fatal(err)
	}
	if err != nil {
		t.Skipf("SKIPPING Docker test: %v", err)
	}
	return docker
}

// Image fails the test when an offline base image other than the common
// one is missing (make test builds every image with lolbench env base
// --lang all; a skip would hide a missing one), and skips it, as
// Executor does, when no engine answers.
func Image(t testing.TB, im *baseimage.Image) *sandbox.Docker {
	t.Helper()
	d := Executor(t)
	tag := im.Tag(os.Getenv)
	id, err := d.ImageID(context.Background(), tag)
	if err != nil {
		t.Fatalf("inspect %s: %v", tag, err)
	}
	if id == "" {
		t.Fatalf("the engine has no offline %s image %s: run '%s' (make test does)", im.Key, tag, im.BuildCommand())
	}
	return d
}
