package shelladapter

import (
	"os"
	"syscall"
)

// groupLeader starts the program in a process group of its own, so that a
// console interrupt meant for mcpdecl does not reach it.
func groupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup ends the program: Windows has no signals to send, and no
// call that ends a whole group, so SIGTERM and SIGKILL both terminate the
// leader at once, and processes it started itself are left running.
func signalGroup(pid int, _ syscall.Signal) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
