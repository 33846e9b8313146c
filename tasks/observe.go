package tasks

// Observer is told of the tasks a runner runs. A task is counted by the
// replica running it, from its creation to the end that replica records,
// so each replica reports only its own; a task whose replica died is
// recorded failed by whichever replica reads it next, and counted by
// none.
type Observer interface {
	// TaskMoved is told a task running here changed state: from "" when
	// it is created; to a terminal state (completed, failed, cancelled)
	// when it ends, after which it is never told of again.
	TaskMoved(from, to string)
}

// moved tells the observer the task is now in state to, once per change;
// nothing after it ended.
func (run *taskRun) moved(to string) {
	obs := run.r.obs
	if obs == nil {
		return
	}
	run.mu.Lock()
	from := run.state
	if from == to || Terminal(from) {
		run.mu.Unlock()
		return
	}
	run.state = to
	run.mu.Unlock()
	obs.TaskMoved(from, to)
}
