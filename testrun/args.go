package testrun

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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
func argValue(prop map[string]any, text string) (any, *UsageError) {
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
	return nil, &UsageError{"the value " + strconv.Quote(text) + " is not " + typeWords(types)}
}

// listValue reads a JSON list, or comma-separated items typed by the
// items schema.
func listValue(prop map[string]any, text string) (any, *UsageError) {
	if strings.HasPrefix(strings.TrimSpace(text), "[") {
		if v, ok := jsonValue(text); ok {
			if _, isList := v.([]any); isList {
				return v, nil
			}
		}
		return nil, &UsageError{"the value " + strconv.Quote(text) + " is not a JSON list"}
	}
	items, _ := prop["items"].(map[string]any)
	var out []any
	for _, part := range strings.Split(text, ",") {
		v, err := argValue(items, strings.TrimSpace(part))
		if err != nil {
			return nil, &UsageError{"item " + strconv.Quote(part) + ": " + err.msg}
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

// UsageError is a mistake in a Request (on the command line: exit status
// 2).
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Request is one call as the command line names it: a tool with its
// arguments (NAME=VALUE pairs typed by the input schema, on top of a JSON
// object), a resource URI, or a prompt, with the client's answers
// (KEY=JSON).
type Request struct {
	Tool, Resource, Prompt string
	Args                   []string
	JSON                   string // an object, or - to read it from Stdin
	Answers                []string
	Stdin                  io.Reader
}

// Target checks what to call against the table and builds its arguments;
// a mistake of the request is a *UsageError.
func (c *Request) Target(tbl *table.Table) (*Target, error) {
	stdin := c.Stdin
	answers, err := c.answers()
	if err != nil {
		return nil, err
	}
	switch {
	case countSet(c.Tool, c.Resource, c.Prompt) != 1:
		return nil, usagef("name one tool, or give --resource URI or --prompt NAME (exactly one of the three)")
	case c.Resource != "":
		if len(c.Args) > 0 || c.JSON != "" {
			return nil, usagef("a resource takes no arguments: a template's values are part of its URI, as in --resource %q", exampleURI(tbl))
		}
		if !tbl.HasResource(c.Resource) {
			return nil, usagef("no resource or resource template serves %q.%s", c.Resource, rule.DidYouMean(c.Resource, ResourceURIs(tbl)))
		}
		return &Target{Resource: c.Resource, Answers: answers}, nil
	case c.Prompt != "":
		return c.promptTarget(tbl, stdin, answers)
	}
	return c.toolTarget(tbl, stdin, answers)
}

func (c *Request) toolTarget(tbl *table.Table, stdin io.Reader, answers map[string]json.RawMessage) (*Target, error) {
	tool := tbl.Tool(c.Tool)
	if tool == nil {
		return nil, usagef("there is no tool %q.%s", c.Tool, rule.DidYouMean(c.Tool, ToolNames(tbl)))
	}
	if len(tool.Questions) > 0 && len(answers) == 0 {
		return nil, usagef("tool %q asks the client %s first; answer with --answer KEY=JSON (see mcpdecl call --help)", tool.Name, questionKeys(tool.Questions))
	}
	base, err := c.jsonArgs(stdin, len(tool.Args.List) > 0)
	if err != nil {
		return nil, err
	}
	args, err := typedArgs(tool.Args.Schema, base, c.Args)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return &Target{Tool: tool.Name, Arguments: raw, Answers: answers}, nil
}

func (c *Request) promptTarget(tbl *table.Table, stdin io.Reader, answers map[string]json.RawMessage) (*Target, error) {
	prompt := tbl.Prompt(c.Prompt)
	if prompt == nil {
		return nil, usagef("there is no prompt %q.%s", c.Prompt, rule.DidYouMean(c.Prompt, PromptNames(tbl)))
	}
	base, err := c.jsonArgs(stdin, len(prompt.Args.List) > 0)
	if err != nil {
		return nil, err
	}
	args, err := promptArgs(prompt.Args, base, c.Args)
	if err != nil {
		return nil, err
	}
	return &Target{Prompt: prompt.Name, PromptArgs: args, Answers: answers}, nil
}

// jsonArgs reads --json into an object: its text, or stdin with --json -.
// A call that takes arguments and is given neither --json nor --arg reads
// them from stdin too when it is a pipe or a file; one without arguments
// never reads stdin, so that it can run in a loop that reads stdin itself.
func (c *Request) jsonArgs(stdin io.Reader, takesArgs bool) (map[string]any, error) {
	text := c.JSON
	if text == "-" || text == "" && len(c.Args) == 0 && takesArgs && readableStdin(stdin) {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading the arguments from stdin: %w", err)
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, usagef("the arguments must be one JSON object, such as {\"query\": \"dune\"}: %s", jsonProblem(err))
	}
	if dec.More() {
		return nil, usagef("the arguments must be one JSON object; more follows it")
	}
	return obj, nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "null is not an object"
	}
	return err.Error()
}

// readableStdin reports whether stdin is a pipe or a file that arguments
// may come from (not a terminal, nor /dev/null's character device).
func readableStdin(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin != nil
	}
	info, err := f.Stat()
	return err == nil && (info.Mode()&os.ModeNamedPipe != 0 || info.Mode().IsRegular())
}

func (c *Request) answers() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for _, kv := range c.Answers {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return nil, usagef("--answer %q: write it as KEY=JSON", kv)
		}
		if !json.Valid([]byte(value)) {
			return nil, usagef("--answer %s: the answer is not valid JSON; write it as the client sends it, e.g. {\"action\":\"accept\",\"content\":{...}}", key)
		}
		out[key] = json.RawMessage(value)
	}
	return out, nil
}

func countSet(ss ...string) int {
	n := 0
	for _, s := range ss {
		if s != "" {
			n++
		}
	}
	return n
}

func exampleURI(t *table.Table) string {
	if len(t.Templates) > 0 {
		return t.Templates[0].URITemplate
	}
	return "URI"
}

func questionKeys(qs []*table.Question) string {
	keys := make([]string, len(qs))
	for i, q := range qs {
		keys[i] = fmt.Sprintf("%s (%s)", q.Key, q.Kind)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
