package sqladapter

import "github.com/mcpdecl/mcpdecl/adapter"

var _ adapter.Summarizer = (*Action)(nil)

// dbSystem is each dialect's db.system.name in the OpenTelemetry
// semantic conventions.
var dbSystem = map[Dialect]string{SQLite: "sqlite", Postgres: "postgresql", MySQL: "mysql"}

// Summary implements adapter.Summarizer: the database system, the
// statement's first keyword and the backend, never the statement's text
// (a literal in it may be a value) nor its parameters.
func (a *Action) Summary() *adapter.CallSummary { return a.summary }

func (a *Action) summarize() *adapter.CallSummary {
	if a.Backend == nil {
		return nil
	}
	system := dbSystem[a.Backend.Driver]
	s := &adapter.CallSummary{Kind: Kind, Backend: a.Backend.Name, Operation: system + " " + a.Backend.Name,
		Attributes: []adapter.Attribute{{Key: "db.system.name", Value: system}}}
	if a.Query != nil && a.Query.Verb != "" {
		s.Operation = a.Query.Verb + " " + a.Backend.Name
		s.Attributes = append(s.Attributes, adapter.Attribute{Key: "db.operation.name", Value: a.Query.Verb})
	}
	return s
}
