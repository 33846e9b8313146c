package serving

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/internal/english"
)

// ConfigError is a configuration that did not compile: its diagnostics
// were reported already (to Options.Diagnostics, or as one log line each).
type ConfigError struct{ Diagnostics hcl.Diagnostics }

func (e *ConfigError) Error() string {
	var first *hcl.Diagnostic
	n := 0
	for _, d := range e.Diagnostics {
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
	msg := strings.TrimSuffix(diagtext.Header(first), "\n")
	if first.Detail != "" {
		msg += ": " + first.Detail
	}
	if n > 1 {
		msg += fmt.Sprintf(" (and %s more)", english.Count(n-1, "error"))
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
