//go:build !windows

package shelladapter

import "syscall"

// groupLeader makes the program the leader of a new process group.
func groupLeader() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// signalGroup sends sig to every process of the group whose leader is pid.
func signalGroup(pid int, sig syscall.Signal) { _ = syscall.Kill(-pid, sig) }
