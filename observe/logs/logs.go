// Package logs makes the server's log lines: the process's logger (New),
// as text or as one JSON object per line, which also carries what the
// libraries beneath the server log by their own means
// (RouteLibraryLogs); and the request log of each call (WithRequest,
// RequestAttrs), the request and trace ids that every line written
// during a call carries, so the lines of one call can be found together
// and beside its span.
//
// It imports no mcpdecl package; the server marks each call's context
// with it, and serving and the command line make the logger.
package logs

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// New writes records at level and above to w, as text or, when format is
// "json", as JSON.
func New(w io.Writer, level, format string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: Level(level)}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// Level reads a level name (debug, info, warn, error, any case); an
// unknown name is info.
func Level(s string) slog.Level {
	var l slog.Level
	_ = l.UnmarshalText([]byte(strings.ToUpper(s)))
	return l
}

// RouteLibraryLogs sends what libraries log by their own means through
// logger, so that with JSON logs every line of stderr is one JSON object:
// slog's default logger (the MySQL driver's messages), the log package's
// (net/http's server errors) and go-redis's (its pool's dial failures);
// OpenTelemetry's go there through tracing.LogTo. It returns a
// function that restores the previous defaults.
func RouteLibraryLogs(logger *slog.Logger) (restore func()) {
	prevSlog, prevOut, prevFlags := slog.Default(), log.Writer(), log.Flags()
	slog.SetDefault(logger)
	redis.SetLogger(redisLog{logger})
	return func() {
		slog.SetDefault(prevSlog)
		log.SetOutput(prevOut)
		log.SetFlags(prevFlags)
	}
}

// redisLog is go-redis's logger: each message becomes one warning (the
// client logs failures it retries, such as a dial that failed).
type redisLog struct{ log *slog.Logger }

func (r redisLog) Printf(ctx context.Context, format string, v ...any) {
	r.log.WarnContext(ctx, "redis client", "message", strings.TrimSpace(fmt.Sprintf(format, v...)))
}
