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

// summarize returns the summary of the call, the one its backend already
// holds for the same method and path when there is one: a summary (and the
// span attributes observers keep in its Memo) depends on nothing else.
func (a *Action) summarize() *adapter.CallSummary {
	b := a.Backend
	if b == nil {
		return a.newSummary()
	}
	b.summariesMu.Lock()
	defer b.summariesMu.Unlock()
	key := a.Method + " " + a.PathSource
	if s, ok := b.summaries[key]; ok {
		return s
	}
	if b.summaries == nil {
		b.summaries = map[string]*adapter.CallSummary{}
	}
	s := a.newSummary()
	b.summaries[key] = s
	return s
}

func (a *Action) newSummary() *adapter.CallSummary {
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
