package shelladapter

import (
	"context"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// KillGrace is how long a stopped command has between SIGTERM and SIGKILL.
const KillGrace = 2 * time.Second

// pipeDelay bounds how long Wait waits for output pipes held open by a
// process that left the process group (setsid) once the command ended.
const pipeDelay = time.Second

// group is the process group of one command: the program is its leader
// (Setpgid), and every process it starts belongs to it unless it moves
// out.
//
// Signalling -pgid is safe only while the leader's PID cannot be reused:
// until the leader is reaped, even as a zombie, no new process can get its
// PID, so no other process group can have that id. run therefore waits for
// the leader to exit without reaping it where the system allows (waitid
// with WNOWAIT on Linux), kills what is left of the group, and only then
// lets Wait reap the leader; after that, no signal is sent.
type group struct {
	mu     sync.Mutex
	pid    int
	reaped bool
	exited bool // the leader exited (it may not be reaped yet)
	// stopped is set when the context ended while the leader ran.
	stopped bool
	kill    *time.Timer // the SIGKILL that follows a SIGTERM
}

// signal sends sig to the whole group, unless the leader was reaped.
func (g *group) signal(sig syscall.Signal) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.signalLocked(sig)
}

func (g *group) signalLocked(sig syscall.Signal) {
	if !g.reaped && g.pid > 0 {
		signalGroup(g.pid, sig)
	}
}

// stop is called when the call's context ends: SIGTERM to the group now,
// SIGKILL after KillGrace.
func (g *group) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reaped || g.exited {
		return
	}
	g.stopped = true
	g.signalLocked(syscall.SIGTERM)
	if g.kill == nil {
		g.kill = time.AfterFunc(KillGrace, func() { g.signal(syscall.SIGKILL) })
	}
}

// reap marks the leader as about to be reaped: no signal is sent after
// it. It reports whether the group was stopped.
func (g *group) reap() (stopped bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reaped = true
	if g.kill != nil {
		g.kill.Stop()
	}
	return g.stopped
}

// run starts cmd in a new process group and waits for it; stopped reports
// whether ctx ended before the program did. When ctx ends
// (the timeout, a cancelled call), the group gets SIGTERM, then SIGKILL
// after KillGrace. When the program exits, on its own or not, whatever it
// left running in its group (a background job, a child ignoring SIGTERM)
// gets SIGKILL, so that nothing outlives the call or holds its pipes; and
// should a process that left the group hold them, cmd.WaitDelay stops Wait
// from waiting for it.
//
// This does what exec.CommandContext with cmd.Cancel would, without its
// watcher goroutine per call and in step with the reaping of the leader.
func (g *group) run(ctx context.Context, cmd *exec.Cmd) (stopped bool, err error) {
	cmd.SysProcAttr = groupLeader()
	cmd.WaitDelay = pipeDelay
	if err := ctx.Err(); err != nil {
		return true, err
	}
	if err := cmd.Start(); err != nil {
		return false, err
	}
	g.mu.Lock()
	g.pid = cmd.Process.Pid
	g.mu.Unlock()

	unwatch := context.AfterFunc(ctx, g.stop)
	if !waitExited(g.pid) {
		// Where the leader's exit cannot be seen without reaping it, the
		// group is signalled until Wait returns, with a small risk that a
		// late SIGKILL reaches a new group that reused the id.
		err := cmd.Wait()
		unwatch()
		return g.reap(), err
	}
	// The leader is a zombie: its PID, and so the group id, is still ours.
	g.mu.Lock()
	g.exited = true
	g.signalLocked(syscall.SIGKILL)
	g.mu.Unlock()
	unwatch()
	stopped = g.reap()
	return stopped, cmd.Wait()
}
