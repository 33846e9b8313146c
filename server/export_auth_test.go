package server

import "log/slog"

// LoggerOf is the server's own (redacting) logger, for tests of what it
// writes.
func LoggerOf(s *Server) *slog.Logger { return s.log }
