package adapter

import (
	"fmt"
	"sort"
)

// Registry maps block kinds to adapters. It is built once, explicitly, and
// passed by value: there is no global registry.
type Registry struct {
	byName map[string]Adapter
}

// NewRegistry returns a registry of the given adapters. It panics on a
// duplicate name, which is a programming error, not a configuration error.
func NewRegistry(adapters ...Adapter) *Registry {
	r := &Registry{byName: map[string]Adapter{}}
	for _, a := range adapters {
		name := a.Info().Name
		if _, dup := r.byName[name]; dup || name == "" {
			panic(fmt.Sprintf("adapter: duplicate or empty adapter name %q", name))
		}
		r.byName[name] = a
	}
	return r
}

// Lookup returns the adapter for a block kind.
func (r *Registry) Lookup(name string) (Adapter, bool) {
	a, ok := r.byName[name]
	return a, ok
}

// Names returns the registered kinds, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
