package shelladapter

import (
	"syscall"
	"unsafe"
)

// waitExited waits until the process pid has exited, without reaping it
// (waitid with WNOWAIT), so that its PID stays taken until exec's Wait
// reaps it. It reports whether it waited.
func waitExited(pid int) bool {
	const (
		pPID    = 1          // P_PID
		wExited = 0x4        // WEXITED
		wNoWait = 0x01000000 // WNOWAIT
	)
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info)), wExited|wNoWait, 0, 0)
		if errno != syscall.EINTR {
			return errno == 0
		}
	}
}
