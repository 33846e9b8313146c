//go:build !race

package server

const raceDetectorOn = false
