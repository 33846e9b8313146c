package eval

import (
	"fmt"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// formatShapes says, for each format whose checker parses text with Go's
// time package, how the value is written, in the terms a person uses.
var formatShapes = map[string]string{
	"date":      "write it as YYYY-MM-DD, for example 2026-11-03",
	"date-time": "write it as YYYY-MM-DDThh:mm:ss with Z or an offset, for example 2026-11-03T09:30:00Z or 2026-11-03T09:30:00+01:00",
	"time":      "write it as hh:mm:ss with Z or an offset, for example 09:30:00Z or 09:30:00+01:00",
	"duration":  "write it as an ISO 8601 duration, for example P3D, PT2H30M or P1Y2M10D",
}

// goLayout matches the part of a Go time error that shows its reference
// layout ("as \"2006-01-02\"") or the parser's own wording about it.
var goLayout = lazyregexp.New(`(?i)2006|15:04|parsing time|cannot parse`)

// FormatProblem is the message for a value that does not match a JSON
// Schema format: what was given, and how such a value is written. The
// validator's own cause is kept only when it names something a person can
// fix ("month out of range"), never Go's reference layout.
func FormatProblem(format, got, cause string) string {
	shape, timeLike := formatShapes[format]
	if !timeLike {
		if cause == "" {
			return fmt.Sprintf("'%s' is not a valid %s", got, format)
		}
		return fmt.Sprintf("'%s' is not a valid %s: %s", got, format, cause)
	}
	out := fmt.Sprintf("'%s' is not a valid %s; %s", got, format, shape)
	if why := humanCause(cause); why != "" {
		out += " (" + why + ")"
	}
	return out
}

// humanCause keeps the end of a time parsing error when it says what is
// out of range ("month out of range"), and drops the rest.
func humanCause(cause string) string {
	if i := strings.LastIndex(cause, ": "); i >= 0 {
		cause = cause[i+2:]
	}
	if goLayout.MatchString(cause) || !strings.Contains(cause, "out of range") {
		return "" // the layout, or a detail of the parser ("less than 20 characters long")
	}
	return cause
}
