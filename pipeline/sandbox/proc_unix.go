//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in its own process group, so that a
// deadline kills the test processes it started too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { killProcessGroup(cmd); return nil }
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
