package hostconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Entry is one stdio server as the hosts' files describe it. The fields
// are written in this order; Type only where the host's format has it.
type Entry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// Result is what merging an entry into a file gives.
type Result struct {
	// New is the whole file after the change (equal to the input when
	// Unchanged).
	New []byte
	// Replaced says an entry of that name was there and is replaced.
	Replaced bool
	// Unchanged says the same entry is already there.
	Unchanged bool
}

// ConflictError is an entry of that name that runs another command: it is
// replaced only when the caller forces it.
type ConflictError struct {
	Name, Command string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("an entry %q is already there and runs %q", e.Name, e.Command)
}

// Merge puts entry under name in the object at keyPath of the JSON file src
// (empty: a new file). Every byte outside the object changed is kept: other
// servers, unknown keys, comments and the file's indentation. An entry of
// that name with another command is a *ConflictError unless force.
func Merge(src []byte, keyPath []string, name string, entry Entry, force bool) (*Result, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return &Result{New: []byte(render(nest(keyPath, name, entry), "", "  ") + "\n")}, nil
	}
	root, err := parse(src)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("the file does not hold a JSON object")
	}
	unit := indentUnit(src, root)
	obj := root
	for i, key := range keyPath {
		m := obj.lookup(key)
		if m == nil {
			return &Result{New: insertMember(src, obj, unit, key, nest(keyPath[i+1:], name, entry))}, nil
		}
		if m.value.kind != '{' {
			return nil, fmt.Errorf("%q is not a JSON object", strings.Join(keyPath[:i+1], "."))
		}
		obj = m.value
	}
	m := obj.lookup(name)
	if m == nil {
		return &Result{New: insertMember(src, obj, unit, name, entry)}, nil
	}
	if reflect.DeepEqual(m.value.value, generic(entry)) {
		return &Result{New: src, Unchanged: true}, nil
	}
	if cmd := commandOf(m.value.value); cmd != entry.Command && !force {
		return nil, &ConflictError{Name: name, Command: cmd}
	}
	indent, _ := lineIndent(src, m.keyStart)
	out := splice(src, m.value.start, m.value.end, render(entry, indent, unit))
	return &Result{New: out, Replaced: true}, nil
}

// commandOf is the command of an existing entry ("" when it has none:
// an HTTP server's entry, say).
func commandOf(v any) string {
	obj, _ := v.(map[string]any)
	cmd, _ := obj["command"].(string)
	return cmd
}

// nest wraps the entry in one object per remaining key.
func nest(keyPath []string, name string, entry Entry) any {
	var v any = map[string]any{name: entry}
	for i := len(keyPath) - 1; i >= 0; i-- {
		v = map[string]any{keyPath[i]: v}
	}
	return v
}

// insertMember adds "key": v as the last member of obj, indented as its
// other members are.
func insertMember(src []byte, obj *node, unit, key string, v any) []byte {
	open, _ := lineIndent(src, obj.start)
	indent := open + unit
	if len(obj.members) > 0 {
		if in, ok := lineIndent(src, obj.members[0].keyStart); ok {
			indent = in
		}
	}
	text := quote(key) + ": " + render(v, indent, unit)
	switch {
	case len(obj.members) == 0 && len(bytes.TrimSpace(src[obj.start+1:obj.closing])) == 0:
		return splice(src, obj.start+1, obj.closing, "\n"+indent+text+"\n"+open)
	case len(obj.members) == 0: // only comments inside: keep them after
		return splice(src, obj.start+1, obj.start+1, "\n"+indent+text)
	case obj.trailingComma >= 0:
		return splice(src, obj.trailingComma+1, obj.trailingComma+1, "\n"+indent+text+",")
	default:
		last := obj.members[len(obj.members)-1].value.end
		return splice(src, last, last, ",\n"+indent+text)
	}
}

// indentUnit is one level of the file's indentation: that of the first
// member of the top object, or two spaces.
func indentUnit(src []byte, root *node) string {
	if len(root.members) > 0 {
		if in, ok := lineIndent(src, root.members[0].keyStart); ok && in != "" {
			return in
		}
	}
	return "  "
}

// lineIndent is the white space that starts the line holding offset, and
// whether only white space stands before offset on that line.
func lineIndent(src []byte, offset int) (string, bool) {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	prefix := src[start:offset]
	n := 0
	for n < len(prefix) && (prefix[n] == ' ' || prefix[n] == '\t') {
		n++
	}
	return string(prefix[:n]), n == len(prefix)
}

func splice(src []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

// render writes v as indented JSON whose lines after the first start with
// indent; HTML characters stay as they are (paths and arguments).
func render(v any, indent, unit string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, unit)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings and maps of strings always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func quote(s string) string { return render(s, "", "") }

// generic is v as encoding/json decodes it into any, for comparing with
// what a file holds.
func generic(v any) any {
	var out any
	_ = json.Unmarshal([]byte(render(v, "", "")), &out)
	return out
}
