//go:build !linux

package guard

import (
	"errors"
	"syscall"
	"time"
)

// The verifier runs in Linux containers; elsewhere only the local
// executor's unisolated mode can work, and process control is refused.

var errNotLinux = errors.New("the verifier's process control needs Linux")

type procInfo struct{}

func killStrays() (int, error)                             { return 0, errNotLinux }
func killUser(uid int) error                               { return errNotLinux }
func userProcs(uid int) []string                           { return nil }
func waitGone(func(procInfo) bool, time.Duration) []string { return nil }
func credential(uid, gid int) *syscall.SysProcAttr         { return nil }
func ownGroup() *syscall.SysProcAttr                       { return &syscall.SysProcAttr{Setpgid: true} }
func killGroup(pgid int)                                   { syscall.Kill(-pgid, syscall.SIGKILL) }
func isRoot() bool                                         { return false }

func sandboxStart() time.Time { return time.Time{} }
