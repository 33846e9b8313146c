package httpadapter

import (
	"strconv"

	"github.com/mcpdecl/mcpdecl/adapter"
)

var _ adapter.Summarizer = (*Action)(nil)

// Summary implements adapter.Summarizer: the method, the backend's host
// and port, and the path template as written (url.template), with no
// value of a call; the base URL's path is left out too, since a static
// value (a variable) may have built it.
func (a *Action) Summary() *adapter.CallSummary { return a.summary }

func (a *Action) summarize() *adapter.CallSummary {
	path := a.PathSource
	if path == "" {
		path = "/"
	}
	s := &adapter.CallSummary{Kind: Kind, Operation: a.Method + " " + path, Attributes: []adapter.Attribute{
		{Key: "http.request.method", Value: a.Method},
		{Key: "url.template", Value: path},
	}}
	if b := a.Backend; b != nil {
		s.Backend = b.Name
		if u := b.BaseURL; u != nil {
			port, _ := strconv.Atoi(portOf(u))
			s.Attributes = append(s.Attributes,
				adapter.Attribute{Key: "server.address", Value: u.Hostname()},
				adapter.Attribute{Key: "server.port", Value: port},
				adapter.Attribute{Key: "url.scheme", Value: u.Scheme})
		}
	}
	return s
}
