//go:build race

package server

// raceDetectorOn: under the race detector sync.Pool drops what it is
// given at random, so the allocations of a call that uses pools vary
// from run to run; allocation comparisons are made without it.
const raceDetectorOn = true
