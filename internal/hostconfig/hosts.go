// Package hostconfig knows where MCP hosts (Claude Desktop, Claude Code,
// VS Code, Cursor) keep their servers and merges a stdio server entry into
// those JSON files without disturbing anything else in them. It is a leaf:
// it imports the standard library only.
package hostconfig

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Dirs are the directories a host's files are found from: the user's home
// and configuration directories (os.UserHomeDir and os.UserConfigDir, so
// HOME, XDG_CONFIG_HOME and APPDATA move them) and the project directory.
type Dirs struct {
	Home, Config, Project string
}

// Host is an MCP host whose configuration file mcpdecl can write.
type Host struct {
	Name  string // as given on the command line: claude-desktop
	Title string // as people call it: Claude Desktop
	// Type is the "type" member an entry has in this host's format ("" for
	// none).
	Type string
	// Scopes are the files the host reads servers from; the first is the
	// default.
	Scopes []Scope
}

// Scope is one place of a host's servers: a file and the keys leading to
// the object of servers inside it.
type Scope struct {
	Name string // project, user, local
	Doc  string
	// File is the file's path from the directories.
	File func(Dirs) string
	// Keys leads to the object of servers (local: through the project's
	// path, which Dirs gives).
	Keys func(Dirs) []string
}

func keys(k ...string) func(Dirs) []string { return func(Dirs) []string { return k } }

// Hosts are the hosts known, in the order help lists them.
var Hosts = []Host{
	{
		Name: "claude-desktop", Title: "Claude Desktop",
		Scopes: []Scope{{
			Name: "user", Doc: "claude_desktop_config.json in Claude's folder of the OS's configuration directory",
			File: func(d Dirs) string { return filepath.Join(d.Config, "Claude", "claude_desktop_config.json") },
			Keys: keys("mcpServers"),
		}},
	},
	{
		Name: "claude-code", Title: "Claude Code", Type: "stdio",
		Scopes: []Scope{
			{Name: "project", Doc: ".mcp.json in the project directory (shared with the project's other users)",
				File: func(d Dirs) string { return filepath.Join(d.Project, ".mcp.json") }, Keys: keys("mcpServers")},
			{Name: "user", Doc: "~/.claude.json, top-level mcpServers (every project of this user)",
				File: func(d Dirs) string { return filepath.Join(d.Home, ".claude.json") }, Keys: keys("mcpServers")},
			{Name: "local", Doc: "~/.claude.json, under projects.<project directory> (this user, this project)",
				File: func(d Dirs) string { return filepath.Join(d.Home, ".claude.json") },
				Keys: func(d Dirs) []string { return []string{"projects", d.Project, "mcpServers"} }},
		},
	},
	{
		Name: "vscode", Title: "VS Code", Type: "stdio",
		Scopes: []Scope{
			{Name: "project", Doc: ".vscode/mcp.json in the workspace folder",
				File: func(d Dirs) string { return filepath.Join(d.Project, ".vscode", "mcp.json") }, Keys: keys("servers")},
			{Name: "user", Doc: "mcp.json of the user profile (Code/User in the OS's configuration directory)",
				File: func(d Dirs) string { return filepath.Join(d.Config, "Code", "User", "mcp.json") }, Keys: keys("servers")},
		},
	},
	{
		Name: "cursor", Title: "Cursor",
		Scopes: []Scope{
			{Name: "project", Doc: ".cursor/mcp.json in the project directory",
				File: func(d Dirs) string { return filepath.Join(d.Project, ".cursor", "mcp.json") }, Keys: keys("mcpServers")},
			{Name: "user", Doc: "~/.cursor/mcp.json (every project)",
				File: func(d Dirs) string { return filepath.Join(d.Home, ".cursor", "mcp.json") }, Keys: keys("mcpServers")},
		},
	},
}

// Names lists the hosts' names.
func Names() []string {
	var names []string
	for _, h := range Hosts {
		names = append(names, h.Name)
	}
	return names
}

// Lookup finds a host by name.
func Lookup(name string) (Host, error) {
	for _, h := range Hosts {
		if h.Name == name {
			return h, nil
		}
	}
	return Host{}, fmt.Errorf("unknown host %q: choose one of %s", name, strings.Join(Names(), ", "))
}

// Scope finds one of the host's scopes by name; "" is the default.
func (h Host) Scope(name string) (Scope, error) {
	if name == "" {
		return h.Scopes[0], nil
	}
	i := slices.IndexFunc(h.Scopes, func(s Scope) bool { return s.Name == name })
	if i < 0 {
		var names []string
		for _, s := range h.Scopes {
			names = append(names, s.Name)
		}
		return Scope{}, fmt.Errorf("%s has no scope %q: choose %s", h.Title, name, strings.Join(names, " or "))
	}
	return h.Scopes[i], nil
}
