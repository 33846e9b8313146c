package mcpadapter

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/adapters/internal/tokenclient"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// Defaults of a backend "mcp" block.
const (
	DefaultPath    = "/usr/local/bin:/usr/bin:/bin"
	DefaultTimeout = 30 * time.Second
	// DefaultMaxHops is how many mcpdecl instances a call may have passed
	// through before this one refuses to pass it on.
	DefaultMaxHops = 8
)

// Backend is a compiled `backend "mcp"` block: how to reach one MCP
// server, and the connection to it once open.
type Backend struct {
	Name string
	// Command is the program and its arguments (stdio); empty for URL.
	Command []string
	// ProgramPath is Command[0] found on Path at load time.
	ProgramPath string
	// Env is the child's environment besides PATH; values may be secrets.
	Env  map[string]string
	Dir  string
	Path string
	// URL is the Streamable HTTP endpoint; nil for Command.
	URL *url.URL
	// Headers are sent with every HTTP request; values may be secrets.
	Headers map[string]string
	// Bearer, when set, is sent as "Authorization: Bearer ...".
	Bearer string
	// OAuth2, when set, is the client whose client credentials tokens
	// (RFC 6749 §4.4) are sent instead; tokens is their cache.
	OAuth2     *tokenclient.ClientCredentials
	tokens     *tokenclient.Source
	tokensOnce sync.Once
	Timeout    time.Duration
	MaxHops    int

	conn      *conn // made by compileBackend; connects on Open or first use
	declRange hcl.Range
}

var _ adapter.Backend = (*Backend)(nil)

// Describe returns the backend's settings; environment and header values
// and the token are left out.
func (b *Backend) Describe() map[string]any {
	d := map[string]any{
		"kind":     Kind,
		"name":     b.Name,
		"timeout":  b.Timeout.String(),
		"max_hops": b.MaxHops,
	}
	if b.URL != nil {
		d["transport"] = "streamable-http"
		d["url"] = b.URL.Redacted()
		if len(b.Headers) > 0 {
			d["headers"] = anyList(check.SortedKeys(b.Headers))
		}
		if b.Bearer != "" {
			d["auth"] = "bearer"
		}
		if b.OAuth2 != nil {
			d["auth"] = "oauth2"
			d["token_url"] = b.OAuth2.TokenURL
		}
		return d
	}
	d["transport"] = "stdio"
	d["command"] = anyList(b.Command)
	d["path"] = b.Path
	if b.ProgramPath != "" {
		d["program"] = b.ProgramPath
	}
	if b.Dir != "" {
		d["dir"] = b.Dir
	}
	if len(b.Env) > 0 {
		d["env"] = anyList(check.SortedKeys(b.Env))
	}
	return d
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// where says where the server is, for messages: the program's name or
// the URL's host (no path, no query: they may hold values of secrets).
func (b *Backend) where() string {
	if b.URL != nil {
		return b.URL.Host
	}
	if len(b.Command) > 0 {
		return filepath.Base(b.Command[0])
	}
	return "?"
}

func compileBackend(bb *adapter.BackendBlock) (*Backend, hcl.Diagnostics) {
	s := bb.Scope
	b := &Backend{Name: bb.Name, Path: DefaultPath, Timeout: DefaultTimeout, MaxHops: DefaultMaxHops, declRange: bb.DeclRange}
	content, diags := bb.Body.Content(BackendSchema)
	a := content.Attributes
	var d hcl.Diagnostics

	switch {
	case a["command"] != nil && a["url"] != nil:
		diags = append(diags, check.Error("Two transports",
			"A backend \"mcp\" block reaches its server either by starting a program (command, over stdio) or at a URL (url, Streamable HTTP); keep one.",
			a["url"].NameRange))
	case a["command"] == nil && a["url"] == nil:
		diags = append(diags, check.Error("Missing transport",
			"A backend \"mcp\" block needs command = [\"program\", \"arg\", ...] (a server started over stdio) or url = \"https://.../mcp\" (Streamable HTTP).",
			bb.DeclRange))
	case a["command"] != nil:
		diags = append(diags, compileStdio(s, b, a)...)
	default:
		diags = append(diags, compileHTTP(s, b, a, content.Blocks)...)
	}
	b.Timeout, d = check.Duration(s, a["timeout"], DefaultTimeout)
	diags = append(diags, d...)
	hops, d := check.Int(s, a["max_hops"], DefaultMaxHops, 1)
	diags = append(diags, d...)
	b.MaxHops = int(hops)
	b.conn = newConn(b)
	return b, diags
}

// compileStdio reads command, env, dir and path, and looks the program up.
func compileStdio(s *adapter.Scope, b *Backend, a hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range []string{"headers"} {
		if attr := a[name]; attr != nil {
			diags = append(diags, check.Error("HTTP setting without url",
				fmt.Sprintf("%s is sent with HTTP requests, and this backend starts a program (command). Give the program what it needs in env instead.", name), attr.NameRange))
		}
	}
	cmd, _, known, d := check.StringList(s, a["command"])
	diags = append(diags, d...)
	if known && len(cmd) == 0 {
		diags = append(diags, check.Error("Empty command", "command needs at least the program to start, as in [\"npx\", \"-y\", \"some-mcp-server\"].", a["command"].Expr.Range()))
	}
	b.Command = cmd
	env, keys, _, d := check.StringMap(s, a["env"])
	diags = append(diags, d...)
	for _, k := range keys {
		if !envName.MatchString(k) {
			diags = append(diags, check.Error("Invalid environment variable name",
				fmt.Sprintf("%q is not a valid environment variable name: use letters, digits and _, not starting with a digit.", k), check.KeyRange(a["env"], k)))
			delete(env, k)
		}
	}
	b.Env = env
	if p, known, d := check.String(s, a["path"], DefaultPath); known {
		diags = append(diags, d...)
		b.Path = p
	} else {
		diags = append(diags, d...)
	}
	if dir, known, d := check.String(s, a["dir"], ""); known {
		diags = append(diags, d...)
		b.Dir = check.Path(a["dir"], dir)
		if st, err := os.Stat(b.Dir); err != nil || !st.IsDir() {
			diags = append(diags, check.Error("Directory not found",
				fmt.Sprintf("dir names %s, which is not a directory. Relative paths are relative to the config file.", b.Dir), a["dir"].Expr.Range()))
		}
	} else {
		diags = append(diags, d...)
	}
	if len(cmd) > 0 {
		if strings.Contains(cmd[0], "/") {
			cmd[0] = check.Path(a["command"], cmd[0]) // relative to the config file
		}
		var err error
		if b.ProgramPath, err = lookPath(cmd[0], b.Path); err != nil {
			diags = append(diags, check.Error("Program not found", err.Error(), check.ElemRange(a["command"], 0)))
		}
	}
	return diags
}

// compileHTTP reads url, headers and the auth block.
func compileHTTP(s *adapter.Scope, b *Backend, a hcl.Attributes, blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range []string{"env", "dir", "path"} {
		if attr := a[name]; attr != nil {
			diags = append(diags, check.Error("Program setting without command",
				fmt.Sprintf("%s is for a server this backend starts (command), and this one is reached at a URL.", name), attr.NameRange))
		}
	}
	if raw, known, d := check.String(s, a["url"], ""); known {
		diags = append(diags, d...)
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			diags = append(diags, check.Error("Invalid URL",
				"url must be an absolute http or https URL of the server's MCP endpoint, as in \"https://mcp.example.com/mcp\".", a["url"].Expr.Range()))
		} else if u.User != nil {
			// A password in the URL would travel into every error that
			// quotes the URL, and so to the model and the log.
			diags = append(diags, check.Error("Credentials in URL",
				"url must not hold a user name or password. Use auth { bearer = env(\"MCP_TOKEN\") } or headers instead.", a["url"].Expr.Range()))
		} else {
			b.URL = u
		}
	} else {
		diags = append(diags, d...)
	}
	h, _, _, d := check.StringMap(s, a["headers"])
	diags = append(diags, d...)
	b.Headers = h
	blk, d := check.Single(blocks, "auth", "A backend \"mcp\" block")
	diags = append(diags, d...)
	if blk != nil {
		diags = append(diags, compileAuth(s, b, blk)...)
	}
	return diags
}

// compileAuth reads the auth block of an HTTP backend: one method,
// bearer = "..." or oauth2 { ... }.
func compileAuth(s *adapter.Scope, b *Backend, blk *hcl.Block) hcl.Diagnostics {
	content, diags := blk.Body.Content(authSchema)
	bearer, oauth2 := content.Attributes["bearer"], content.Blocks.OfType("oauth2")
	switch {
	case bearer == nil && len(oauth2) == 0:
		return append(diags, check.Error("Missing auth method",
			"An auth block needs one method: bearer = \"...\" or oauth2 { ... }.", blk.DefRange))
	case bearer != nil && len(oauth2) > 0, len(oauth2) > 1:
		return append(diags, check.Error("Conflicting auth methods",
			"An auth block has one method: bearer = \"...\" or one oauth2 { ... } block, not both.", blk.DefRange))
	case bearer != nil:
		var d hcl.Diagnostics
		b.Bearer, _, d = check.String(s, bearer, "")
		return append(diags, d...)
	}
	c, d := oauth2[0].Body.Content(oauth2Schema)
	diags = append(diags, d...)
	creds := &tokenclient.ClientCredentials{}
	if raw, known, d := check.String(s, c.Attributes["token_url"], ""); known {
		diags = append(diags, d...)
		if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			diags = append(diags, check.Error("Invalid URL",
				fmt.Sprintf("token_url must be an absolute http or https URL, such as \"https://auth.example.com/oauth/token\", not %q.", raw), c.Attributes["token_url"].Expr.Range()))
		} else {
			creds.TokenURL = u.String()
		}
	} else {
		diags = append(diags, d...)
	}
	creds.ClientID, _, d = check.String(s, c.Attributes["client_id"], "")
	diags = append(diags, d...)
	creds.ClientSecret, _, d = check.String(s, c.Attributes["client_secret"], "")
	diags = append(diags, d...)
	creds.Scopes, _, _, d = check.StringList(s, c.Attributes["scopes"])
	diags = append(diags, d...)
	// The token is for this server (RFC 8707), unless said otherwise.
	if b.URL != nil {
		creds.Resource = b.URL.String()
	}
	if raw, known, d := check.String(s, c.Attributes["resource"], creds.Resource); known && c.Attributes["resource"] != nil {
		diags = append(diags, d...)
		if u, err := url.Parse(raw); err != nil || u.Scheme == "" || u.Host == "" || strings.Contains(raw, "#") {
			diags = append(diags, check.Error("Invalid resource",
				fmt.Sprintf("resource is the absolute URI the token is for (RFC 8707), without a fragment, such as \"https://mcp.example.com/mcp\", not %q.", raw), c.Attributes["resource"].Expr.Range()))
		} else {
			creds.Resource = raw
		}
	} else {
		diags = append(diags, d...)
	}
	b.OAuth2 = creds
	return diags
}

var envName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// lookPath finds program as the child will: a path with a slash as it is
// (made absolute against the config file's folder), else in the
// directories of path.
func lookPath(program, path string) (string, error) {
	if strings.Contains(program, "/") {
		if executable(program) {
			return program, nil
		}
		return "", fmt.Errorf("%s is not an executable file", program)
	}
	for _, d := range filepath.SplitList(path) {
		if p := filepath.Join(d, program); executable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q is not on the backend's path (%s). Set path = \"...\" to the directories to look in, or give the program's absolute path", program, path)
}

func executable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}
