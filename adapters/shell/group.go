package shelladapter

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// KillGrace is how long a stopped command has between SIGTERM and SIGKILL.
const KillGrace = 2 * time.Second

// pipeDelay bounds how long Wait waits for output pipes held open by a
// process that escaped the process group (setsid) once the command ended.
const pipeDelay = KillGrace + time.Second

// group is the process group of one command: the program is its leader
// (Setpgid), and every child it starts belongs to it unless it moves out.
//
// Signalling -pgid is safe only while the leader's PID cannot be reused:
// until the leader is reaped, even as a zombie, no new process can get its
// PID, so no other process group can have the same id. run therefore waits
// for the leader to exit without reaping it where the system allows
// (waitid with WNOWAIT on Linux), kills what is left of the group, and
// only then lets Wait reap it; after that, no signal is sent.
type group struct {
	mu     sync.Mutex
	pid    int
	reaped bool
}

// signal sends sig to the whole group, unless the leader was reaped.
func (g *group) signal(sig syscall.Signal) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reaped || g.pid <= 0 {
		return os.ErrProcessDone
	}
	err := syscall.Kill(-g.pid, sig)
	if err == syscall.ESRCH {
		return os.ErrProcessDone
	}
	return err
}

func (g *group) markReaped() {
	g.mu.Lock()
	g.reaped = true
	g.mu.Unlock()
}

// prepare sets cmd up to run in a new process group that is stopped as a
// whole when cmd's context is done: SIGTERM first (through cmd.Cancel),
// SIGKILL after KillGrace (by run).
func prepare(cmd *exec.Cmd) *group {
	g := &group{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// exec calls Cancel only after Start set cmd.Process.
		g.mu.Lock()
		if g.pid == 0 {
			g.pid = cmd.Process.Pid
		}
		g.mu.Unlock()
		return g.signal(syscall.SIGTERM)
	}
	// WaitDelay is the backstop after the SIGKILL of run: should the group
	// be gone but a process outside it still hold stdout or stderr, Wait
	// closes the pipes after this delay instead of hanging.
	cmd.WaitDelay = pipeDelay
	return g
}

// run starts cmd (set up by prepare with a context ctx) and waits for it.
// When ctx is done, cmd.Cancel sends SIGTERM to the group; if the program
// has not exited KillGrace later, the group gets SIGKILL. When the program
// exits, on its own or not, whatever it left running in its group (a
// background job, a child ignoring SIGTERM) gets SIGKILL, so that nothing
// outlives the call and holds its pipes.
func (g *group) run(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	g.mu.Lock()
	g.pid = cmd.Process.Pid
	g.mu.Unlock()

	exited := leaderExited(g.pid)
	if exited == nil {
		return g.waitReaping(ctx, cmd)
	}
	select {
	case <-exited:
	case <-ctx.Done():
		// cmd.Cancel sends SIGTERM (from exec's own goroutine).
		t := time.NewTimer(KillGrace)
		select {
		case <-exited:
		case <-t.C:
			_ = g.signal(syscall.SIGKILL)
			<-exited
		}
		t.Stop()
	}
	// The leader is a zombie: its PID, and so the group id, is still ours.
	_ = g.signal(syscall.SIGKILL)
	g.markReaped()
	return cmd.Wait()
}

// waitReaping is run where the leader's exit cannot be observed without
// reaping it: the group is signalled until Wait returns, with a small risk
// that the last signals reach a process group that reused the id.
func (g *group) waitReaping(ctx context.Context, cmd *exec.Cmd) error {
	var kill *time.Timer
	stop := context.AfterFunc(ctx, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		kill = time.AfterFunc(KillGrace, func() { _ = g.signal(syscall.SIGKILL) })
	})
	err := cmd.Wait()
	g.markReaped()
	stop()
	g.mu.Lock()
	if kill != nil {
		kill.Stop()
	}
	g.mu.Unlock()
	return err
}
