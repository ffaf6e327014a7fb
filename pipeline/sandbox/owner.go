package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Labels that tie a job container to the lolbench process that made it
// (issue 14): a run killed with SIGKILL cannot remove its containers, so
// the next run stops and removes the running ones whose owner is gone.
const (
	LabelRun        = "org.lolbench.run"         // a random id per process
	LabelOwnerHost  = "org.lolbench.owner.host"  // the owner's host name
	LabelOwnerPID   = "org.lolbench.owner.pid"   // the owner's process id
	LabelOwnerStart = "org.lolbench.owner.start" // its start time in clock ticks since boot (/proc/PID/stat), against PID reuse
)

// owner identifies this process on this host.
type owner struct{ run, host, pid, start string }

var self = func() owner {
	b := make([]byte, 8)
	rand.Read(b)
	host, _ := os.Hostname()
	pid := os.Getpid()
	start, _ := procStart(pid)
	return owner{run: hex.EncodeToString(b), host: host, pid: strconv.Itoa(pid), start: start}
}()

func (o owner) labels() map[string]string {
	return map[string]string{LabelRun: o.run, LabelOwnerHost: o.host, LabelOwnerPID: o.pid, LabelOwnerStart: o.start}
}

// procStart returns a process's start time (field 22 of /proc/PID/stat),
// or an error when there is no such process.
func procStart(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it start past the last ")".
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return "", fmt.Errorf("/proc/%d/stat: no command field", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return "", fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	return f[19], nil
}

// ownerGone reports whether a container's labels name an owner process on
// this host that no longer runs. A container of another host, or without
// owner labels, is never judged gone: its owner cannot be checked.
func ownerGone(labels map[string]string) bool {
	if labels[LabelOwnerHost] == "" || labels[LabelOwnerHost] != self.host {
		return false
	}
	pid, err := strconv.Atoi(labels[LabelOwnerPID])
	if err != nil || pid <= 0 {
		return false
	}
	start, err := procStart(pid)
	if err != nil {
		// ESRCH: the process exited while its stat file was read.
		return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH)
	}
	return labels[LabelOwnerStart] != "" && start != labels[LabelOwnerStart]
}
