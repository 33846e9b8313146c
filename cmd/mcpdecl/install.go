package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/internal/hostconfig"
	"github.com/mcpdecl/mcpdecl/internal/udiff"
	"github.com/mcpdecl/mcpdecl/serving"
)

type installCmd struct {
	Host   string   `arg:"" enum:"claude-desktop,claude-code,vscode,cursor" help:"The MCP host: claude-desktop, claude-code, vscode or cursor."`
	Config string   `arg:"" name:"config" help:"The configuration (a file or a directory) the host's server serves."`
	Name   string   `help:"The server's name in the host (default: the configuration's file name without .hcl)."`
	Scope  string   `help:"Which of the host's files: project (the default: .mcp.json, .vscode/mcp.json, .cursor/mcp.json in --dir) or user (the user's file, every project); Claude Code also has local (~/.claude.json, for --dir only). Claude Desktop has one file."`
	File   string   `placeholder:"PATH" help:"Write this file instead of the scope's (the scope still says which keys lead to the servers)."`
	Dir    string   `placeholder:"DIR" help:"The project directory of the project and local scopes (default: the current directory)."`
	Env    []string `sep:"none" placeholder:"NAME=VALUE" help:"An environment variable the host sets for the server (repeatable). The value is stored in the host's file as written."`
	Watch  bool     `help:"Serve with --watch, so that edits of the configuration are picked up without restarting the host."`
	DryRun bool     `name:"dry-run" help:"Print the diff of the host's file and write nothing."`
	Yes    bool     `short:"y" help:"Write without asking (the diff is printed all the same)."`
	Force  bool     `help:"Replace an entry of the same name that runs another command."`
}

// installInput is where the confirmation is read from (tests replace it).
var installInput io.Reader = os.Stdin

func (c *installCmd) Run(s streams) error {
	host, err := hostconfig.Lookup(c.Host)
	if err != nil {
		return err
	}
	scope, err := host.Scope(c.Scope)
	if err != nil {
		return err
	}
	config, err := c.compiledConfig(s)
	if err != nil {
		return err
	}
	entry, err := c.entry(host, config)
	if err != nil {
		return err
	}
	dirs, err := c.dirs()
	if err != nil {
		return err
	}
	file := c.File
	if file == "" {
		file = scope.File(dirs)
	}
	name := c.Name
	if name == "" {
		name = serverName(config)
	}
	return c.write(s, host, file, scope.Keys(dirs), name, entry)
}

// compiledConfig is the configuration's absolute path, once it compiles:
// a host would otherwise start a server that exits at once, which hosts
// report poorly.
func (c *installCmd) compiledConfig(s streams) (string, error) {
	abs, err := filepath.Abs(c.Config)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("%w: give the path of a .hcl file or of a directory holding them", err)
	}
	cfg, _, diags := serving.Compile([]string{abs}, nil, nil)
	if diags.HasErrors() {
		diagtext.Sort(diags)
		_ = diagtext.WriteText(s.err, diags, cfg.Files)
		return "", fmt.Errorf("%s does not compile, so nothing was installed: fix the errors above (mcpdecl validate %s) and run install again", c.Config, c.Config)
	}
	return abs, nil
}

// entry is the server as the host starts it: this binary, by its absolute
// path with symbolic links resolved (hosts started from a desktop often
// lack the shell's PATH), serving the configuration over stdio.
func (c *installCmd) entry(host hostconfig.Host, config string) (hostconfig.Entry, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return hostconfig.Entry{}, fmt.Errorf("cannot tell where this mcpdecl binary is (%v); write the host's entry by hand as README's \"Plug it into an MCP host\" shows", err)
	}
	args := []string{"serve"}
	if c.Watch {
		args = append(args, "--watch")
	}
	e := hostconfig.Entry{Type: host.Type, Command: exe, Args: append(args, config)}
	for _, kv := range c.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return e, fmt.Errorf("--env %q: write it as NAME=VALUE", kv)
		}
		if e.Env == nil {
			e.Env = map[string]string{}
		}
		e.Env[k] = v
	}
	return e, nil
}

func (c *installCmd) dirs() (hostconfig.Dirs, error) {
	var d hostconfig.Dirs
	var err error
	if d.Home, err = os.UserHomeDir(); err != nil {
		return d, fmt.Errorf("%w: set HOME, or give --file", err)
	}
	if d.Config, err = os.UserConfigDir(); err != nil {
		return d, fmt.Errorf("%w: set it, or give --file", err)
	}
	d.Project = c.Dir
	if d.Project == "" {
		d.Project = "."
	}
	d.Project, err = filepath.Abs(d.Project)
	return d, err
}

// write merges the entry into the host's file, shows the diff and writes
// it when asked to.
func (c *installCmd) write(s streams, host hostconfig.Host, file string, keys []string, name string, entry hostconfig.Entry) error {
	old, mode, err := readHostFile(file)
	if err != nil {
		return err
	}
	res, err := hostconfig.Merge(old, keys, name, entry, c.Force)
	var syntax *hostconfig.SyntaxError
	var conflict *hostconfig.ConflictError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("%s is not JSON that mcpdecl can edit (%v): fix it, or move it away and run install again", file, err)
	case errors.As(err, &conflict):
		return fmt.Errorf("%s: %v; nothing was written: give another --name, or --force to replace it", file, err)
	case err != nil:
		return fmt.Errorf("%s: %w; nothing was written: fix the file, or give another --file", file, err)
	}
	if res.Unchanged {
		fmt.Fprintf(s.out, "%s already has the server %q as it would be written; nothing to do.\n", file, name)
		return nil
	}
	fmt.Fprint(s.out, udiff.Labeled(file, file, string(old), string(res.New)))
	if c.DryRun {
		return nil
	}
	if !c.Yes && !confirm(s, file) {
		fmt.Fprintln(s.err, "Nothing was written (answer y, or give --yes).")
		return exitCode(1)
	}
	if err := writeFileAtomic(file, res.New, mode); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "Wrote %s: %s starts %q with %s. %s\n", file, host.Title, name, strings.Join(entry.Args, " "), restartHint(host))
	return nil
}

func restartHint(h hostconfig.Host) string {
	switch h.Name {
	case "claude-desktop":
		return "Quit and start Claude Desktop again to load it."
	case "claude-code":
		return "Claude Code asks to approve a project's servers the first time; /mcp lists them."
	default:
		return h.Title + " lists it among its MCP servers (start it there if it does not start by itself)."
	}
}

// confirm asks on stderr and reads one line from installInput.
func confirm(s streams, file string) bool {
	fmt.Fprintf(s.err, "Write %s? [y/N] ", file)
	line, _ := bufio.NewReader(installInput).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

// readHostFile returns the file's bytes and mode; a missing file is empty.
func readHostFile(file string) ([]byte, fs.FileMode, error) {
	info, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, nil
	}
	if err != nil {
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file: give another --file", file)
	}
	b, err := os.ReadFile(file)
	return b, info.Mode().Perm(), err
}

// writeFileAtomic replaces file by renaming a complete copy over it, so a
// host reading it meanwhile never sees half a file.
func writeFileAtomic(file string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// serverName is the default name of the server in the host: the
// configuration's file (or directory) name without its extension, with
// characters other than letters, digits, '-' and '_' made '-'.
func serverName(config string) string {
	base := filepath.Base(config)
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".json"), ".hcl")
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, base)
	if strings.Trim(name, "-") == "" {
		return "mcpdecl"
	}
	return name
}
