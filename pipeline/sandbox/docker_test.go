package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/results"
)

// The Docker tests run against the real engine. They build the sample
// projects' images on the offline base image that `lolbench env base` makes
// (make test builds it before the tests); layers are cached by tag, so a
// second run of the suite reuses them. Every test of this binary shares one
// prepared environment and one validation per sample.

var testBaseImage = baseimage.Tag(os.Getenv)

var (
	dockerOnce sync.Once
	dockerExec *Docker
	dockerErr  error
)

// needDocker returns the Docker executor, or skips the test, visibly,
// when no engine answers. An engine without the base image is a failure:
// CI builds it first.
func needDocker(t testing.TB) *Docker {
	t.Helper()
	dockerOnce.Do(func() {
		dockerExec, dockerErr = NewDocker(context.Background())
		if dockerErr == nil {
			var id string
			id, dockerErr = dockerExec.ImageID(context.Background(), testBaseImage)
			if dockerErr == nil && id == "" {
				dockerErr = fmt.Errorf("the engine answers but has no %s: run '%s' first (make test does)", testBaseImage, baseimage.BuildCommand)
			}
			if dockerErr != nil {
				dockerErr = fmt.Errorf("FATAL %w", dockerErr)
			}
		}
	})
	if dockerErr != nil {
		if strings.HasPrefix(dockerErr.Error(), "FATAL ") {
			t.Fatal(strings.TrimPrefix(dockerErr.Error(), "FATAL "))
		}
		t.Skipf("SKIPPING Docker test: %v", dockerErr)
	}
	return dockerExec
}

type validated struct {
	once sync.Once
	env  Env
	rep  *Report
	logs string
	err  error
}

var (
	validMu sync.Mutex
	valids  = map[string]*validated{}
)

// validateSample prepares a sample's environment with ex and validates its
// plan, once per binary and executor.
func validateSample(t *testing.T, ex Executor, name string) (Env, *Report, string) {
	t.Helper()
	s := loadSample(t, name)
	validMu.Lock()
	v := valids[ex.Name()+"/"+name]
	if v == nil {
		v = &validated{}
		valids[ex.Name()+"/"+name] = v
	}
	validMu.Unlock()
	v.once.Do(func() {
		v.logs = filepath.Join(sampleRoot(t), "logs-"+ex.Name()+"-"+name)
		spec := s.spec(name + "-test")
		spec.LogDir = v.logs
		if v.env, v.err = ex.Prepare(context.Background(), spec); v.err != nil {
			return
		}
		v.rep, v.err = Validate(context.Background(), v.env, s.plan, v.logs, nil)
	})
	if v.err != nil {
		t.Fatal(v.err)
	}
	return v.env, v.rep, v.logs
}

// localExecutor is the local executor with the host's Debian python3 (which
// has pytest) ahead of any other on PATH, and the host's Go.
func localExecutor() *Local {
	l := NewLocal(nil)
	l.Env = []string{"PATH=/usr/local/go/bin:/usr/bin:/bin"}
	return l
}

// Expected lists. tinykv: the PR's new tests in store, server and
// snapshot, and every older test of those packages, whose test files do
// not compile at the base commit once the test patch is applied.
var (
	tinykvF2P = []string{
		"example.com/tinykv/server.TestHandle",
		"example.com/tinykv/server.TestPythonClientExpiry",
		"example.com/tinykv/server.TestSetexAndTTL",
		"example.com/tinykv/snapshot.TestExpiryRoundTrip",
		"example.com/tinykv/snapshot.TestLoadSkipsExpired",
		"example.com/tinykv/snapshot.TestLoadVersion1",
		"example.com/tinykv/snapshot.TestRoundTrip",
		"example.com/tinykv/store.TestDelete",
		"example.com/tinykv/store.TestKeysSorted",
		"example.com/tinykv/store.TestSetClearsExpiry",
		"example.com/tinykv/store.TestSetGet",
		"example.com/tinykv/store.TestSetWithTTLExpires",
		"example.com/tinykv/store.TestSetWithTTLRejectsNonPositive",
		"example.com/tinykv/store.TestStartSweeperStops",
		"example.com/tinykv/store.TestSweepRemovesExpired",
		"example.com/tinykv/store.TestTTL",
	}
	tinykvP2P   = []string{"example.com/tinykv/internal/proto.TestParse"}
	tinykvFlaky = []Flaky{{Name: "example.com/tinykv/internal/proto.TestParseRepeatable", Side: Before,
		Statuses: []results.Status{results.Passed, results.Failed, results.Passed}}}

	// unitconv: the new tests of the changed test files, and every test of
	// the two new modules (which do not import before the solution).
	unitconvF2P = []string{
		"tests.test_cli::test_cli_compound",
		"tests.test_cli::test_cli_offset_error",
		"tests.test_cli::test_cli_temperature",
		"tests.test_cli::test_cli_temperature_ascii",
		"tests.test_compound::test_composed_unit_is_a_unit",
		"tests.test_compound::test_composed_units_compare_by_value",
		"tests.test_compound::test_div",
		"tests.test_compound::test_mul",
		"tests.test_compound::test_power",
		"tests.test_compound::test_power_needs_int",
		"tests.test_compound::test_terms_cancel",
		"tests.test_format::test_format_compound_symbol",
		"tests.test_format::test_format_temperature_ascii",
		"tests.test_format::test_format_temperature_symbol",
		"tests.test_parse::test_parse_bad_expression[m s-bad unit expression 'm s' at column 3: two units without an operator]",
		"tests.test_parse::test_parse_bad_expression[m/-bad unit expression 'm/' at column 2: operator / without a unit after it]",
		"tests.test_parse::test_parse_bad_expression[m//s-bad unit expression 'm//s' at column 3: operator / without a unit before it]",
		"tests.test_parse::test_parse_bad_expression[s^0-bad unit expression 's^0' at column 1: exponent 0]",
		"tests.test_parse::test_parse_left_to_right",
		"tests.test_parse::test_parse_negative_exponent",
		"tests.test_parse::test_parse_power",
		"tests.test_parse::test_parse_product_with_blanks",
		"tests.test_parse::test_parse_quantity_with_expression",
		"tests.test_parse::test_parse_quotient",
		"tests.test_parse::test_parse_reciprocal",
		"tests.test_quantity::test_acceleration_units_agree",
		"tests.test_quantity::test_compound_dimension_error",
		"tests.test_quantity::test_existing_units_keep_a_zero_offset",
		"tests.test_quantity::test_power_from_energy_per_time",
		"tests.test_quantity::test_si_adds_offset",
		"tests.test_quantity::test_speed",
		"tests.test_temperature::test_aliases",
		"tests.test_temperature::test_kelvin_composes",
		"tests.test_temperature::test_offset_units_cannot_be_composed",
		"tests.test_temperature::test_round_trip",
		"tests.test_temperature::test_scales[-40-degF-degC--40.0]",
		"tests.test_temperature::test_scales[0-K-degF--459.67]",
		"tests.test_temperature::test_scales[0-degC-K-273.15]",
		"tests.test_temperature::test_scales[100-degC-degF-212.0]",
		"tests.test_temperature::test_scales[32-degF-K-273.15]",
	}
	unitconvP2P = []string{
		"tests.test_cli::test_cli_convert",
		"tests.test_cli::test_cli_dimension_error",
		"tests.test_cli::test_cli_list",
		"tests.test_cli::test_cli_missing_target",
		"tests.test_cli::test_cli_precision",
		"tests.test_format::test_format_bad_precision",
		"tests.test_format::test_format_large_value",
		"tests.test_format::test_format_plain",
		"tests.test_format::test_format_precision",
		"tests.test_parse::test_parse_number_forms[+7 mm-7.0]",
		"tests.test_parse::test_parse_number_forms[-2.5 s--2.5]",
		"tests.test_parse::test_parse_number_forms[.5 h-0.5]",
		"tests.test_parse::test_parse_number_forms[1e3 m-1000.0]",
		"tests.test_parse::test_parse_quantity_malformed[3..5 km]",
		"tests.test_parse::test_parse_quantity_malformed[]",
		"tests.test_parse::test_parse_quantity_malformed[km]",
		"tests.test_parse::test_parse_quantity_malformed[three km]",
		"tests.test_parse::test_parse_quantity_with_blank",
		"tests.test_parse::test_parse_quantity_without_blank",
		"tests.test_parse::test_parse_unit_empty",
		"tests.test_parse::test_parse_unit_unknown",
		"tests.test_quantity::test_dimension_error",
		"tests.test_quantity::test_kilometres_to_metres",
		"tests.test_quantity::test_miles_to_kilometres",
		"tests.test_quantity::test_minutes_to_hours",
		"tests.test_quantity::test_si",
		"tests.test_units::test_derived_dimensions",
		"tests.test_units::test_lookup_length",
		"tests.test_units::test_lookup_unknown",
		"tests.test_units::test_symbols_sorted",
	}
)

func wantSample(name string) Classification {
	c := Classification{Flaky: []Flaky{}, Broken: []string{}, FailBoth: []string{}, FailAfter: []string{}, Skipped: []string{}}
	switch name {
	case "tinykv":
		c.FailToPass, c.PassToPass, c.Flaky = tinykvF2P, tinykvP2P, tinykvFlaky
	case "unitconv":
		c.FailToPass, c.PassToPass = unitconvF2P, unitconvP2P
	}
	return c
}

// TestDockerSamples: the F2P and P2P sets of both samples, exactly, and
// tinykv's flaky test excluded (it flips between the runs of a side, which
// share one container and its /tmp).
func TestDockerSamples(t *testing.T) {
	d := needDocker(t)
	for _, name := range []string{"tinykv", "unitconv"} {
		t.Run(name, func(t *testing.T) {
			_, rep, _ := validateSample(t, d, name)
			if rep.Rejected != "" {
				t.Fatalf("rejected: %s", rep.Rejected)
			}
			if want := wantSample(name); !reflect.DeepEqual(rep.Classification, want) {
				t.Fatalf("got  %+v\nwant %+v", rep.Classification, want)
			}
			if !rep.Env.Isolated || rep.Env.Executor != "docker" || rep.Env.TaskImage != "lolbench/task:"+name+"-test" {
				t.Fatalf("env %+v", rep.Env)
			}
		})
	}
}

// TestLocalAgreesWithDocker: the local executor finds the same lists on
// both samples (with the host's toolchains: Go 1.26 and Python 3.11 here,
// Go 1.19 and Python 3.11 in the image).
func TestLocalAgreesWithDocker(t *testing.T) {
	d := needDocker(t)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("SKIPPING: no /usr/bin/python3 with pytest on this host")
	}
	for _, name := range []string{"tinykv", "unitconv"} {
		t.Run(name, func(t *testing.T) {
			_, drep, _ := validateSample(t, d, name)
			_, lrep, _ := validateSample(t, localExecutor(), name)
			if lrep.Env.Isolated {
				t.Fatal("the local executor claims isolation")
			}
			if !reflect.DeepEqual(lrep.Classification, drep.Classification) {
				t.Fatalf("local  %+v\ndocker %+v", lrep.Classification, drep.Classification)
			}
		})
	}
}

// TestDockerRejections: a broken reference solution is rejected with its
// reason.
func TestDockerRejections(t *testing.T) {
	d := needDocker(t)
	env, _, _ := validateSample(t, d, "unitconv")
	s := loadSample(t, "unitconv")
	tests := []struct {
		name   string
		edit   func(p *Plan)
		reason string
	}{
		{"does not apply", func(p *Plan) {
			p.Solution = []byte(strings.Replace(string(p.Solution), `-__version__ = "0.3.0"`, `-__version__ = "0.2.9"`, 1))
		}, "the reference solution does not apply: error: patch failed: unitconv/__init__.py:1"},
		{"breaks the package", func(p *Plan) {
			p.Solution = []byte(strings.Replace(string(p.Solution), "+def mul(a, b):", "+def mul(a, b)", 1))
		}, "no fail-to-pass test: no test passes after the reference solution (run 1: exit code 1 (1 planted canary fails on purpose), 7 error)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := s.plan
			tt.edit(&plan)
			if string(plan.Solution) == string(s.plan.Solution) {
				t.Fatal("the edit changed nothing")
			}
			rep, err := Validate(context.Background(), env, plan, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Rejected != tt.reason {
				t.Fatalf("rejected %q\nwant     %q", rep.Rejected, tt.reason)
			}
		})
	}
}

// TestDockerNoNetwork opens a socket from inside a job: with the jobs'
// network mode (none) there is no route anywhere, but "localhost" resolves
// to the loopback addresses and a server on it answers (issue 36: with
// NetworkDisabled there was no /etc/hosts); with the engine's default
// bridge the same check gets past routing (so it can fail).
func TestDockerNoNetwork(t *testing.T) {
	d := needDocker(t)
	env, _, _ := validateSample(t, d, "unitconv")
	script := `python3 - >"$LOLBENCH_DIR/out/net" 2>&1 <<'PY'
import errno, os, socket
print("interfaces", sorted(os.listdir("/sys/class/net")))
print("localhost", sorted({a[4][0] for a in socket.getaddrinfo("localhost", 0, type=socket.SOCK_STREAM)}))
srv = socket.create_server(("localhost", 0))
c = socket.create_connection(("localhost", srv.getsockname()[1]), timeout=3)
print("loopback", c.getpeername()[0])
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.settimeout(3)
try:
    s.connect(("192.0.2.1", 80))
    print("connect ok")
except OSError as e:
    print("connect", errno.errorcode.get(e.errno, e.errno) if e.errno else type(e).__name__)
PY
`
	check := func(network string) string {
		old := d.network
		d.network = network
		defer func() { d.network = old }()
		out := t.TempDir()
		if _, err := env.Run(context.Background(), Job{Name: "net", Script: script, OutDir: out}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(out, "net"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if got, want := check("none"), "interfaces ['lo']\nlocalhost ['127.0.0.1', '::1']\nloopback 127.0.0.1\nconnect ENETUNREACH\n"; got != want {
		t.Fatalf("network none: got %q, want %q", got, want)
	}
	if got := check("bridge"); !strings.Contains(got, "'eth0'") || strings.Contains(got, "ENETUNREACH") {
		t.Fatalf("bridge control: got %q; the check cannot tell a network from none", got)
	}
}

// TestDockerLimits: the job runs as the recipe's non-root user, with the
// recipe's CPU, memory and pids limits in its cgroup, and no capabilities.
func TestDockerLimits(t *testing.T) {
	d := needDocker(t)
	env, _, _ := validateSample(t, d, "unitconv")
	r := loadSample(t, "unitconv").recipe
	script := `{
id -un
cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max
cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes
cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo "$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us) $(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)"
grep CapEff /proc/self/status
} >"$LOLBENCH_DIR/out/limits" 2>&1
`
	out := t.TempDir()
	if _, err := env.Run(context.Background(), Job{Name: "limits", Script: script, OutDir: out}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(out, "limits"))
	want := fmt.Sprintf("lolbench\n%d\n%d\n%d 100000\nCapEff:\t0000000000000000\n", r.Limits.PIDs, r.Limits.MemoryMB<<20, int(r.Limits.CPUs*100000))
	if string(data) != want {
		t.Fatalf("got\n%s\nwant\n%s", data, want)
	}
}

// TestDockerJobDeadline: a container past its job's deadline is killed
// (with a fresh context) and removed; what it wrote is collected.
func TestDockerJobDeadline(t *testing.T) {
	d := needDocker(t)
	env, _, _ := validateSample(t, d, "unitconv")
	out := t.TempDir()
	res, err := env.Run(context.Background(), Job{Name: "sleepy", Script: "echo started >\"$LOLBENCH_DIR/out/mark\"\nsleep 120\n", Timeout: 3 * time.Second, OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut {
		t.Fatalf("result %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "mark")); string(data) != "started\n" {
		t.Fatalf("mark %q", data)
	}
	assertNoContainers(t, d, "unitconv-test")
}

// TestDockerCancelRemovesContainer: cancelling the caller's context kills
// and removes the container, although that context can no longer be used.
func TestDockerCancelRemovesContainer(t *testing.T) {
	d := needDocker(t)
	env, _, _ := validateSample(t, d, "unitconv")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := env.Run(ctx, Job{Name: "cancelled", Script: "sleep 120\n", OutDir: t.TempDir()})
		done <- err
	}()
	// Cancel once the container is running.
	for i := 0; i < 1200 && countContainers(t, d, "unitconv-test", "running") == 0; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("err = %v", err)
	}
	assertNoContainers(t, d, "unitconv-test")
}

// TestDockerSecondTaskReusesEnv: a second task of the same repository,
// base commit and recipe reuses layer 2 as it is.
func TestDockerSecondTaskReusesEnv(t *testing.T) {
	d := needDocker(t)
	first, _, _ := validateSample(t, d, "unitconv")
	s := loadSample(t, "unitconv")
	second, err := d.Prepare(context.Background(), s.spec("unitconv-second"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := first.Info(), second.Info()
	if !b.EnvReused || b.EnvImage != a.EnvImage || b.EnvImageID == "" || b.TaskImage == a.TaskImage {
		t.Fatalf("first %+v\nsecond %+v", a, b)
	}
	if id, _ := d.ImageID(context.Background(), a.EnvImage); id != b.EnvImageID {
		t.Fatalf("env image id %s, second task used %s", id, b.EnvImageID)
	}
	d.RemoveImage(context.Background(), b.TaskImage)
}

// TestDockerSameTaskIDTwoWorkspaces: two workspaces whose candidates share
// an id on one engine share the task's tag, which names the last one
// prepared; each one's jobs still run in its own image.
func TestDockerSameTaskIDTwoWorkspaces(t *testing.T) {
	d := needDocker(t)
	s := loadSample(t, "unitconv")
	var envs []Env
	for _, w := range []string{"first", "second"} {
		spec := s.spec("unitconv-same-id")
		spec.Recipe.Install = []string{"echo " + w + " >workspace.txt"}
		env, err := d.Prepare(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, env)
	}
	defer d.RemoveImage(context.Background(), envs[1].Info().TaskImage)
	for i, w := range []string{"first", "second"} {
		out := t.TempDir()
		if _, err := envs[i].Run(context.Background(), Job{Name: "which", Script: `cat workspace.txt >"$LOLBENCH_DIR/out/which"`, OutDir: out}); err != nil {
			t.Fatal(err)
		}
		if data, err := os.ReadFile(filepath.Join(out, "which")); err != nil || string(data) != w+"\n" {
			t.Errorf("a job of the %s workspace ran in an image that says %q (%v)", w, data, err)
		}
	}
}

// TestDockerBuildFailureReported: a failing install command fails the
// build with its step, its status and its last output (ImageBuild itself
// returns no error).
func TestDockerBuildFailureReported(t *testing.T) {
	d := needDocker(t)
	s := loadSample(t, "unitconv")
	spec := s.spec("unitconv-broken")
	spec.Recipe.Install = []string{"echo about to fail && exit 7"}
	spec.LogDir = t.TempDir()
	_, err := d.Prepare(context.Background(), spec)
	if err == nil || !strings.Contains(err.Error(), ": install 1 of 1 (echo about to fail && exit 7) failed with exit status 7; last output: ") || !strings.Contains(err.Error(), "about to fail") {
		t.Fatalf("err = %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(spec.LogDir, "image-env.log"))
	if !strings.Contains(string(log), "ERROR: The command") {
		t.Fatalf("build log:\n%s", log)
	}
}

// TestDockerNoSetpriv: layer 2 runs the install commands as the recipe's
// user through setpriv; an image without it fails the build in one line
// that says so, not with a shell's "not found" deep in the log.
func TestDockerNoSetpriv(t *testing.T) {
	d := needDocker(t)
	tag := "lolbench-test/no-setpriv:" + strings.TrimPrefix(testBaseImage[strings.LastIndexByte(testBaseImage, ':')+1:], "bookworm-")
	build := exec.Command("docker", "build", "-q", "-t", tag, "-")
	build.Stdin = strings.NewReader("FROM " + testBaseImage + "\nRUN rm /usr/bin/setpriv\n")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v: %s", err, out)
	}
	s := loadSample(t, "unitconv")
	spec := s.spec("unitconv-no-setpriv")
	spec.Recipe.Image = tag
	spec.LogDir = t.TempDir()
	_, err := d.Prepare(context.Background(), spec)
	want := ": user switch failed with exit status 127; last output: the image has no setpriv (util-linux), with which layer 2 runs the install commands as lolbench (log " +
		filepath.Join(spec.LogDir, "image-env.log") + ")"
	if err == nil || !strings.HasPrefix(err.Error(), "build "+EnvRepo+":unitconv-") || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v\nwant it to end in %q", err, want)
	}
	ctx := context.Background()
	d.RemoveImage(ctx, baseImageName(spec.Recipe))
	d.RemoveImage(ctx, tag)
}
