//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in its own process group, so that a
// deadline kills the test processes it started too. withContext says the
// command was made by exec.CommandContext, whose cancellation then kills
// the whole group.
func setProcessGroup(cmd *exec.Cmd, withContext bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if withContext {
		cmd.Cancel = func() error { killProcessGroup(cmd); return nil }
	}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
