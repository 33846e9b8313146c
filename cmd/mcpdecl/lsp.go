package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpdecl/mcpdecl/lsp"
)

type lspCmd struct {
	Stdio bool `help:"Talk over stdin and stdout (the default and only transport; accepted because editors' clients pass it)."`
}

// Help is the detail of `mcpdecl lsp --help`.
func (*lspCmd) Help() string {
	return `Editors start it as their language server for mcpdecl files ` +
		`(VS Code's extension in editors/vscode does; for others see README.md, "Other editors"). ` +
		`It reads the Language Server Protocol on stdin and writes it on stdout: diagnostics as ` +
		`mcpdecl validate gives them (lint included) on the unsaved text, formatting as mcpdecl fmt, ` +
		`outline, hover, completion, quick fixes, and definition, references, rename and semantic tokens for every name. Exit status 0 after the client's shutdown and exit, 1 otherwise.`
}

func (*lspCmd) Run(s streams) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &lsp.Server{Version: buildVersion(), Index: lsp.NewNameIndex()}
	err := srv.Run(ctx, os.Stdin, s.out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, lsp.ErrNoShutdown):
		return exitCode(1)
	}
	fmt.Fprintln(s.err, "mcpdecl lsp:", err)
	return exitCode(1)
}
