//go:build linux

package guard

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The verifier's process control, from /proc. The verifier runs as root in
// the container's PID namespace, so /proc shows every process of the
// sandbox and nothing of the host.

// procInfo is what /proc/PID/status says of a process.
type procInfo struct {
	pid   int
	ppid  int
	uids  [4]int // real, effective, saved, filesystem
	state byte
	name  string
}

func readProc(pid int) (procInfo, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procInfo{}, false
	}
	defer f.Close()
	p := procInfo{pid: pid}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "Name":
			p.name = v
		case "State":
			if v != "" {
				p.state = v[0]
			}
		case "PPid":
			p.ppid, _ = strconv.Atoi(v)
		case "Uid":
			for i, f := range strings.Fields(v) {
				if i < 4 {
					p.uids[i], _ = strconv.Atoi(f)
				}
			}
		}
	}
	return p, true
}

// alive reports whether a process still runs: zombies and dead tasks have
// run their last instruction.
func (p procInfo) alive() bool { return p.state != 'Z' && p.state != 'X' }

func (p procInfo) ownedBy(uid int) bool {
	for _, u := range p.uids {
		if u == uid {
			return true
		}
	}
	return false
}

func listProcs() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// ancestors are this process, its parents up to PID 1, and PID 1.
func ancestors() map[int]bool {
	keep := map[int]bool{1: true}
	for pid := os.Getpid(); pid > 1 && !keep[pid]; {
		keep[pid] = true
		p, ok := readProc(pid)
		if !ok {
			break
		}
		pid = p.ppid
	}
	return keep
}

// killStrays stops, then kills, every process but PID 1, the verifier and
// its ancestors: what an agent left running in the container. Stopping
// first keeps a process from forking faster than it is killed.
func killStrays() (int, error) {
	keep := ancestors()
	stopped := map[int]bool{}
	for round := 0; round < 100; round++ {
		fresh := 0
		for _, p := range listProcs() {
			if keep[p.pid] || stopped[p.pid] || !p.alive() {
				continue
			}
			syscall.Kill(p.pid, syscall.SIGSTOP)
			stopped[p.pid] = true
			fresh++
		}
		if fresh == 0 {
			break
		}
	}
	for pid := range stopped {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if left := waitGone(func(p procInfo) bool { return stopped[p.pid] }, 5*time.Second); len(left) > 0 {
		return len(stopped), fmt.Errorf("processes survived being killed: %s", strings.Join(left, ", "))
	}
	return len(stopped), nil
}

// killUser kills every process of uid, at once: kill(-1) sent with uid's
// credentials reaches exactly the processes uid may signal, and the kernel
// delivers it to all of them under one lock, so none can fork away. The
// shell that sends it runs as uid (and spares only itself).
func killUser(uid, gid int) error {
	cmd := exec.Command("/bin/sh", "-c", "kill -9 -1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}}
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Dir = "/"
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("kill the processes of uid %d: %w", uid, err)
	}
	cmd.Wait() // kill reports an error when uid had no process left: fine
	return nil
}

// userProcs lists the live processes of uid ("pid name").
func userProcs(uid int) []string {
	var out []string
	self := os.Getpid()
	for _, p := range listProcs() {
		if p.pid != self && p.ownedBy(uid) && p.alive() {
			out = append(out, fmt.Sprintf("%d %s", p.pid, p.name))
		}
	}
	sort.Strings(out)
	return out
}

// waitGone waits until no live process matches, or the time is up, and
// returns those still alive.
func waitGone(match func(procInfo) bool, within time.Duration) []string {
	deadline := time.Now().Add(within)
	for {
		var left []string
		for _, p := range listProcs() {
			if match(p) && p.alive() {
				left = append(left, fmt.Sprintf("%d %s", p.pid, p.name))
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			sort.Strings(left)
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// credential runs a command as uid:gid with no supplementary groups, in a
// process group of its own.
func credential(uid, gid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Setpgid:    true,
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}},
	}
}

// ownGroup runs a command in a process group of its own, as the verifier's
// user (local executor).
func ownGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }

// isRoot reports whether the verifier has root's powers.
func isRoot() bool { return os.Geteuid() == 0 }

// sandboxStart is when the sandbox's first process (PID 1) started, a
// little earlier to be safe; zero when it cannot be told. Nothing in the
// sandbox changed before it.
func sandboxStart() time.Time {
	stat, err := os.ReadFile("/proc/1/stat")
	if err != nil {
		return time.Time{}
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after its closing parenthesis. starttime is field 22 of the line.
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return time.Time{}
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 20 {
		return time.Time{}
	}
	ticks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return time.Time{}
	}
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "btime "); ok {
			boot, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}
			}
			// USER_HZ is 100 on every Linux the verifier runs on.
			return time.Unix(boot, 0).Add(time.Duration(ticks) * 10 * time.Millisecond).Add(-2 * time.Second)
		}
	}
	return time.Time{}
}
