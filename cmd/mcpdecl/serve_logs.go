package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/observe/logs"
)

// configError is a configuration that did not compile: its diagnostics
// were reported already (as text, or as one log line each with JSON).
type configError struct{ diags hcl.Diagnostics }

func (e *configError) Error() string {
	var first *hcl.Diagnostic
	n := 0
	for _, d := range e.diags {
		if d.Severity == hcl.DiagError {
			if first == nil {
				first = d
			}
			n++
		}
	}
	if first == nil {
		return "the configuration has errors"
	}
	msg := strings.TrimSuffix(diagHeader(first), "\n")
	if first.Detail != "" {
		msg += ": " + first.Detail
	}
	if n > 1 {
		msg += fmt.Sprintf(" (and %s more)", plural(n-1, "error"))
	}
	return msg
}

// logDiagnostics writes each diagnostic as one log line with its place.
func logDiagnostics(logger *slog.Logger, diags hcl.Diagnostics) {
	for _, d := range diags {
		level, msg := slog.LevelError, "configuration error"
		if d.Severity != hcl.DiagError {
			level, msg = slog.LevelWarn, "configuration warning"
		}
		attrs := []slog.Attr{slog.String("summary", d.Summary)}
		if d.Detail != "" {
			attrs = append(attrs, slog.String("detail", d.Detail))
		}
		if r := d.Subject; r != nil {
			attrs = append(attrs, slog.String("file", r.Filename), slog.Int("line", r.Start.Line), slog.Int("column", r.Start.Column))
		}
		logger.LogAttrs(context.Background(), level, msg, attrs...)
	}
}

// wantsJSONLog reports a serve command line asking for JSON logs, so that
// even an error in the command line itself is written as a JSON line.
func wantsJSONLog(args []string) bool {
	if len(args) == 0 || args[0] != "serve" {
		return false
	}
	for i, a := range args {
		if a == "--log-format=json" || a == "--log-format" && i+1 < len(args) && args[i+1] == "json" {
			return true
		}
	}
	return false
}

// startFailedJSON writes an error that ended serve before it served as
// one JSON log line.
func startFailedJSON(w io.Writer, err error, attrs ...any) {
	logs.New(w, "info", "json").Error("serve failed", append([]any{"error", err.Error()}, attrs...)...)
}
