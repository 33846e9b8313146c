// Command gen writes a generated configuration of N tools to standard
// output, for measuring mcpdecl on a large config:
//
//	go run ./internal/largecfg/gen 10000 > /tmp/large.hcl
//	mcpdecl validate /tmp/large.hcl
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
)

func main() {
	n, err := 0, error(nil)
	if len(os.Args) == 2 {
		n, err = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) != 2 || err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "usage: gen N (a whole number of tools, at least 1) > large.hcl")
		os.Exit(2)
	}
	if err := largecfg.Write(os.Stdout, n); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
