package shelladapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

// dbClient is the command-line client of a database. Besides SQL it runs
// commands of its own, some of which run programs (sqlite3's .shell and
// .system, psql's and mysql's \!), so the commands it reads are code.
type dbClient struct {
	names []string
	// codeFlags are followed by commands to run; long is the same with
	// the commands attached ("--command=").
	codeFlags []string
	long      string
	// fileFlags are followed by a file of commands.
	fileFlags []string
	// valueFlags take a value that is not commands.
	valueFlags []string
	// sqlOperand is the 1-based operand from which operands are commands
	// (sqlite3 DB SQL...), 0 for none.
	sqlOperand int
	// bang is the client's command that runs a program, for the message.
	bang string
}

var dbClients = []dbClient{
	{names: []string{"sqlite3"}, codeFlags: []string{"-cmd"}, fileFlags: []string{"-init"}, sqlOperand: 2, bang: ".shell",
		valueFlags: []string{"-separator", "-newline", "-nullvalue", "-vfs", "-maxsize", "-mmap", "-escape", "-lookaside", "-pagecache", "-heap"}},
	{names: []string{"psql"}, codeFlags: []string{"-c", "--command"}, long: "--command=", fileFlags: []string{"-f", "--file"}, bang: `\!`,
		valueFlags: []string{"-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set", "--variable", "-P", "--pset", "-T", "-o", "--output", "-L", "--log-file", "-F", "-R"}},
	{names: []string{"mysql", "mariadb"}, codeFlags: []string{"-e", "--execute"}, long: "--execute=", bang: `\!`,
		valueFlags: []string{"-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database", "-S", "--socket"}},
}

func dbClientOf(base string) *dbClient {
	for i := range dbClients {
		if slices.Contains(dbClients[i].names, base) {
			return &dbClients[i]
		}
	}
	return nil
}

// checkDBClient refuses a value of the call where the client reads
// commands: after a code flag, as a command operand, as the file of
// commands, or on stdin when command gives it no commands of its own.
func checkDBClient(s *adapter.Scope, elems []hcl.Expression, literal []*string, stdin hcl.Expression, prog string, c *dbClient) hcl.Diagnostics {
	var diags hcl.Diagnostics
	commands, operands := false, 0
	code := func(e hcl.Expression) {
		if refersToRuntime(s, e) {
			diags = append(diags, dbCode(prog, c, e.Range()))
		}
	}
	for j := 0; j < len(elems); j++ {
		if literal[j] == nil {
			text := leadingText(s, elems[j])
			switch {
			case c.long != "" && strings.HasPrefix(text, c.long):
				commands = true
				code(elems[j])
			case strings.HasPrefix(text, "-"): // an option with its value attached
			default:
				operands++
				if c.sqlOperand > 0 && operands >= c.sqlOperand {
					commands = true
					code(elems[j])
				}
			}
			continue
		}
		l := *literal[j]
		switch {
		case slices.Contains(c.codeFlags, l):
			commands = true
			if j+1 < len(elems) {
				code(elems[j+1])
			}
			j++
		case slices.Contains(c.fileFlags, l):
			if j+1 < len(elems) {
				diags = append(diags, programFile(s, elems[j+1], prog)...)
				commands = literal[j+1] == nil || !slices.Contains(stdinPaths, *literal[j+1])
			}
			j++
		case c.long != "" && strings.HasPrefix(l, c.long):
			commands = true
		case slices.Contains(c.valueFlags, l):
			j++
		case strings.HasPrefix(l, "-"):
		default:
			operands++
			commands = commands || c.sqlOperand > 0 && operands >= c.sqlOperand
		}
	}
	if !commands && stdin != nil && refersToRuntime(s, stdin) {
		diags = append(diags, dbCode(prog, c, stdin.Range()))
	}
	return diags
}

func dbCode(prog string, c *dbClient, r hcl.Range) *hcl.Diagnostic {
	base := filepath.Base(prog)
	return check.Error("Arguments run as code",
		fmt.Sprintf("%s reads commands here, not only SQL: its own commands run programs (%s), so an argument value could run any command on the server. Use a sql backend, which binds each value as a parameter, or, with psql, write the statement in command and pass each value as a variable (-v id=${args.x}, read as :'id'). If the value is trusted, set allow_shell = true.",
			base, c.bang),
		r)
}
