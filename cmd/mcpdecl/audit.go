package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/mcpdecl/mcpdecl/observe/audit"
)

type auditCmd struct {
	Verify auditVerifyCmd `cmd:"" help:"Check the SHA-256 chain of an audit trail; report the first broken link (an edited, inserted or deleted line). Exit status 1 when the chain is broken."`
}

type auditVerifyCmd struct {
	File string `arg:"" help:"The audit trail (serve --audit FILE)."`
}

func (c *auditVerifyCmd) Run(s streams) error {
	f, err := os.Open(c.File)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := audit.Verify(f)
	var broken *audit.BrokenLink
	if errors.As(err, &broken) {
		fmt.Fprintf(s.err, "%s: the chain is broken at line %d: %s (%d records before it are intact)\n", c.File, broken.Line, broken.Reason, n)
		return exitCode(1)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "%s: %d records, chain intact\n", c.File, n)
	return nil
}
