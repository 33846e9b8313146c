// Command loopbench is the per-call loopback benchmark's own program,
// run by scripts/bench-loopback.sh: the hand-written peers that mcpdecl is
// measured against, the REST backend the rest job wraps, the SQLite
// database the sql job reads, and the load generator that calls either
// server over loopback and checks every answer.
//
//	loopbench seed DB                       # the items table, ids 1..1000
//	loopbench backend ADDR                  # GET /items/{id} as JSON
//	loopbench bare -job echo|rest|sql -addr ADDR [-backend URL] [-db DB]
//	loopbench load -url URL/mcp -job echo|rest|sql [-c 8] [-d 5s | -n 200]
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: loopbench seed|backend|bare|load ..."))
	}
	var err error
	switch args := os.Args[2:]; os.Args[1] {
	case "seed":
		err = runSeed(args)
	case "backend":
		err = runBackend(args)
	case "bare":
		err = runBare(args)
	case "load":
		err = runLoad(args)
	default:
		err = fmt.Errorf("unknown command %q: use seed, backend, bare or load", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "loopbench:", err)
	os.Exit(1)
}
