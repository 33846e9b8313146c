package main

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/table"
)

// typedArgs sets each NAME=VALUE pair on args, the value typed by the
// property NAME of the input schema: strings as written, numbers, bools,
// lists and objects parsed from the text. A list property may be given
// more than once (one item each) or as a JSON list or comma-separated items.
func typedArgs(schema map[string]any, args map[string]any, pairs []string) (map[string]any, error) {
	props, _ := schema["properties"].(map[string]any)
	given := map[string]bool{}
	for _, kv := range pairs {
		name, text, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, usagef("--arg %q: write it as NAME=VALUE", kv)
		}
		prop, known := props[name].(map[string]any)
		if !known {
			return nil, unknownArg(name, props)
		}
		v, err := argValue(prop, text)
		if err != nil {
			return nil, usagef("--arg %s: %s", name, err.msg)
		}
		if given[name] {
			list, isList := args[name].([]any)
			items, more := v.([]any)
			if !isList || !more {
				return nil, usagef("--arg %s is given twice; only a list argument may be repeated", name)
			}
			v = append(list, items...)
		}
		given[name] = true
		args[name] = v
	}
	return args, nil
}

func unknownArg(name string, props map[string]any) error {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return usagef("there is no argument %q: this takes no arguments", name)
	}
	return usagef("there is no argument %q.%s The arguments are %s.", name, rule.DidYouMean(name, names), strings.Join(names, ", "))
}

// argValue parses text as the schema's type says.
func argValue(prop map[string]any, text string) (any, *usageError) {
	types := schemaTypes(prop)
	switch {
	case len(types) == 0:
		if v, ok := jsonValue(text); ok {
			return v, nil
		}
		return text, nil
	case slices.Contains(types, "string") && !strings.HasPrefix(text, "[") && !strings.HasPrefix(text, "{"):
		return text, nil
	case slices.Contains(types, "array"):
		return listValue(prop, text)
	}
	v, ok := jsonValue(text)
	if ok && fitsTypes(v, types) {
		return v, nil
	}
	if slices.Contains(types, "boolean") {
		if b, err := strconv.ParseBool(text); err == nil {
			return b, nil
		}
	}
	if slices.Contains(types, "string") {
		return text, nil
	}
	return nil, &usageError{"the value " + strconv.Quote(text) + " is not " + typeWords(types)}
}

// listValue reads a JSON list, or comma-separated items typed by the
// items schema.
func listValue(prop map[string]any, text string) (any, *usageError) {
	if strings.HasPrefix(strings.TrimSpace(text), "[") {
		if v, ok := jsonValue(text); ok {
			if _, isList := v.([]any); isList {
				return v, nil
			}
		}
		return nil, &usageError{"the value " + strconv.Quote(text) + " is not a JSON list"}
	}
	items, _ := prop["items"].(map[string]any)
	var out []any
	for _, part := range strings.Split(text, ",") {
		v, err := argValue(items, strings.TrimSpace(part))
		if err != nil {
			return nil, &usageError{"item " + strconv.Quote(part) + ": " + err.msg}
		}
		out = append(out, v)
	}
	return out, nil
}

func schemaTypes(prop map[string]any) []string {
	var out []string
	switch t := prop["type"].(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "null" })
}

func jsonValue(text string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

func fitsTypes(v any, types []string) bool {
	for _, t := range types {
		switch x := v.(type) {
		case json.Number:
			if t == "number" || t == "integer" && isInteger(x) {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		}
	}
	return false
}

func isInteger(n json.Number) bool {
	_, ok := rule.Int(string(n))
	return ok || !strings.ContainsAny(string(n), ".eE")
}

func typeWords(types []string) string {
	words := map[string]string{"integer": "an integer", "number": "a number", "boolean": "true or false",
		"object": "a JSON object", "array": "a list", "string": "a string"}
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = words[t]
		if out[i] == "" {
			out[i] = t
		}
	}
	return strings.Join(out, " or ")
}

// promptArgs builds a prompt's arguments (strings, as the protocol
// carries them) from the JSON object and NAME=VALUE pairs.
func promptArgs(a *table.Args, base map[string]any, pairs []string) (map[string]string, error) {
	names := make([]string, len(a.List))
	for i, arg := range a.List {
		names[i] = arg.Name
	}
	out := map[string]string{}
	for k, v := range base {
		s, ok := v.(string)
		if !ok {
			return nil, usagef("prompt argument %s must be a string: prompts take text arguments", k)
		}
		out[k] = s
	}
	for _, kv := range pairs {
		name, text, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, usagef("--arg %q: write it as NAME=VALUE", kv)
		}
		if !slices.Contains(names, name) {
			return nil, unknownArg(name, propsOf(names))
		}
		out[name] = text
	}
	return out, nil
}

func propsOf(names []string) map[string]any {
	out := map[string]any{}
	for _, n := range names {
		out[n] = true
	}
	return out
}
