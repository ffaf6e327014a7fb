//go:build !unix

package sandbox

import "os/exec"

func setProcessGroup(cmd *exec.Cmd, withContext bool) {}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
