//go:build race

package server_test

// raceEnabled: the race detector adds allocations of its own, so
// allocation budgets are not measured under it.
const raceEnabled = true
