package openapi

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
)

// Filter selects operations. Each non-empty list must match (any of its
// entries), and no Exclude list may.
type Filter struct {
	Tags              []string // any tag of the operation, case-insensitive
	Paths             []string // globs: * is any text within one segment, ** any text
	Methods           []string
	OperationIDs      []string
	ExcludeTags       []string
	ExcludePaths      []string
	ExcludeMethods    []string
	ExcludeOperations []string
	// Deprecated includes deprecated operations, which are left out
	// otherwise.
	Deprecated bool
	// MCPOptIn leaves out the operations the document's MCP extensions
	// do not include (x-mcp: true at some level, or an extension object
	// on the operation); otherwise only those they exclude are left out.
	MCPOptIn bool

	ignoreMCP bool // for MCPLeftOut
}

// Select returns the operations the filter keeps, in document order. An
// unknown glob syntax is an error; an empty result is not (the caller
// says so).
func (f Filter) Select(ops []*Operation) ([]*Operation, error) {
	inc, err := compileGlobs(f.Paths)
	if err != nil {
		return nil, err
	}
	exc, err := compileGlobs(f.ExcludePaths)
	if err != nil {
		return nil, err
	}
	var out []*Operation
	for _, op := range ops {
		if op.Deprecated && !f.Deprecated {
			continue
		}
		if !f.ignoreMCP && !op.MCP.Included(f.MCPOptIn) {
			continue
		}
		if f.includes(op, inc) && !f.excludes(op, exc) {
			out = append(out, op)
		}
	}
	return out, nil
}

// DeprecatedLeftOut counts the operations of ops that the filter leaves
// out only because they are deprecated: those it would keep with
// Deprecated set. It is 0 when Deprecated is set.
func (f Filter) DeprecatedLeftOut(ops []*Operation) (int, error) {
	if f.Deprecated {
		return 0, nil
	}
	f.Deprecated = true
	all, err := f.Select(ops)
	n := 0
	for _, op := range all {
		if op.Deprecated {
			n++
		}
	}
	return n, err
}

// MCPLeftOut counts the operations of ops that the filter leaves out
// only because of the MCP extensions: excluded, those an extension
// excludes; notOptedIn, those no extension includes while MCPOptIn is
// set.
func (f Filter) MCPLeftOut(ops []*Operation) (excluded, notOptedIn int, err error) {
	f.ignoreMCP = true
	all, err := f.Select(ops)
	for _, op := range all {
		switch {
		case op.MCP.Included(f.MCPOptIn):
		case op.MCP.Include != nil:
			excluded++
		default:
			notOptedIn++
		}
	}
	return excluded, notOptedIn, err
}

// DropMCPHints makes the document read as if it had no MCP extension:
// every operation is a candidate, with its generated name and
// description, and the extensions' warnings are dropped.
func (api *API) DropMCPHints() {
	for _, op := range api.Operations {
		op.MCP = MCPHints{}
	}
	api.Warnings = nil
}

func (f Filter) includes(op *Operation, paths []*regexp.Regexp) bool {
	return (len(f.Tags) == 0 || anyFold(op.Tags, f.Tags)) &&
		(len(paths) == 0 || anyMatch(paths, op.Path)) &&
		(len(f.Methods) == 0 || anyFold([]string{op.Method}, f.Methods)) &&
		(len(f.OperationIDs) == 0 || slices.Contains(f.OperationIDs, op.ID))
}

func (f Filter) excludes(op *Operation, paths []*regexp.Regexp) bool {
	return anyFold(op.Tags, f.ExcludeTags) || anyMatch(paths, op.Path) ||
		anyFold([]string{op.Method}, f.ExcludeMethods) || slices.Contains(f.ExcludeOperations, op.ID)
}

func anyFold(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if strings.EqualFold(h, w) {
				return true
			}
		}
	}
	return false
}

func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// compileGlobs turns path globs into regular expressions: ** matches any
// text, * any text without '/', ? one character other than '/'.
func compileGlobs(globs []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, g := range globs {
		var b strings.Builder
		b.WriteString("^")
		for i := 0; i < len(g); i++ {
			switch {
			case strings.HasPrefix(g[i:], "**"):
				b.WriteString(".*")
				i++
			case g[i] == '*':
				b.WriteString("[^/]*")
			case g[i] == '?':
				b.WriteString("[^/]")
			default:
				b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			}
		}
		b.WriteString("$")
		re, err := regexp.Compile(b.String())
		if err != nil {
			return nil, fmt.Errorf("--path %q: %w", g, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// List writes the operations as a table: the tool name each would get,
// operationId, method, path and tags.
func List(w io.Writer, ops []*Operation) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tOPERATION ID\tMETHOD\tPATH\tTAGS")
	names := newNamer(maxToolName)
	for _, op := range ops {
		id := op.ID
		if id == "" {
			id = "-"
		}
		// Every field is document text: none may reach the terminal
		// with its escape sequences, nor break the table with a tab.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", names.unique(toolBase(op)), cleanLine(id), cleanLine(op.Method), cleanLine(op.Path), cleanLine(strings.Join(op.Tags, ",")))
	}
	return tw.Flush()
}
