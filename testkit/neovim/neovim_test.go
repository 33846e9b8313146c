// Package neovim runs README's Neovim snippet ("### Other editors") in a
// real Neovim: nvim --headless with the snippet as its init.lua opens an
// example with a typo, and `mcpdecl lsp` must send the diagnostic and
// answer go-to-definition. The snippet is read from README.md, so a
// change there that breaks it fails here.
package neovim

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// readmeSnippet is the ```lua block under README's "### Other editors".
func readmeSnippet(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### Other editors\n")
	if !ok {
		t.Fatal(`README.md has no "### Other editors" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, block, ok := strings.Cut(section, "\n```lua\n")
	if !ok {
		t.Fatal(`README's "### Other editors" has no ` + "```lua" + ` block`)
	}
	block, _, ok = strings.Cut(block, "\n```")
	if !ok {
		t.Fatal("README's ```lua block under \"### Other editors\" is not closed")
	}
	return block + "\n"
}

// buildMcpdecl builds mcpdecl into a folder of its own and returns it, to
// be put on PATH: the snippet starts `mcpdecl lsp` by name.
func buildMcpdecl(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "mcpdecl"), "github.com/mcpdecl/mcpdecl/cmd/mcpdecl").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// project copies examples/library.hcl (and the file it reads) into a git
// project with the argument query misspelt, and returns the folder.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"library.hcl", "policy.md"} {
		b, err := os.ReadFile(filepath.Join("../../examples", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "library.hcl" {
			typo := strings.Replace(string(b), "q = args.query,", "q = args.qery,", 1)
			if typo == string(b) {
				t.Fatal(`examples/library.hcl no longer has "q = args.query,": pick another place for the typo`)
			}
			b = []byte(typo)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// position is the 1-based line and column of the first occurrence of
// marker in text, plus offset characters (ASCII lines only).
func position(t *testing.T, text, marker string, offset int) (line, col int) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if c := strings.Index(l, marker); c >= 0 {
			return i + 1, c + 1 + offset
		}
	}
	t.Fatalf("no line holds %q", marker)
	return 0, 0
}

func TestReadmeSnippetInNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		testenv.Require(t, "nvim (Neovim 0.7 or later) on PATH", "apt-get install neovim")
	}
	home := t.TempDir()
	initLua := filepath.Join(home, "init.lua")
	if err := os.WriteFile(initLua, []byte(readmeSnippet(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildMcpdecl(t)
	dir := project(t)
	src, err := os.ReadFile(filepath.Join(dir, "library.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	typoLine, typoCol := position(t, string(src), "args.qery", 0)
	useLine, useCol := position(t, string(src), "args.limit }", len("args."))
	declLine, declCol := position(t, string(src), `arg "limit"`, len(`arg "`))

	report := filepath.Join(home, "report.txt")
	script, _ := filepath.Abs("testdata/report.lua")
	// -i NONE: no shada file; the XDG folders keep Neovim's state and its
	// LSP log out of the user's home.
	// A limit for a Neovim that hangs (report.lua waits at most three
	// minutes), not a measure of speed.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-i", "NONE", "-u", initLua, "library.hcl", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"REPORT="+report, "DEF_LINE="+strconv.Itoa(useLine-1), "DEF_CHAR="+strconv.Itoa(useCol-1))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("nvim wrote no report (%v); its output:\n%s", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(b)), "\n")
	t.Logf("Neovim's report:\n%s", b)

	wantDiag := "diagnostic " + strconv.Itoa(typoLine) + ":" + strconv.Itoa(typoCol) + " MCPD012 "
	wantDef := "definition " + filepath.Join(dir, "library.hcl") + " " + strconv.Itoa(declLine) + ":" + strconv.Itoa(declCol)
	wantRenames := renames(filepath.Join(dir, "library.hcl"), string(src))
	var diag, def int
	var gotRenames []string
	for _, l := range got {
		switch {
		case strings.HasPrefix(l, "error"):
			t.Error(l)
		case strings.HasPrefix(l, "diagnostic "):
			diag++
			if strings.HasPrefix(l, wantDiag) && !strings.Contains(l, `Did you mean args.query?`) {
				t.Errorf("the MCPD012 diagnostic does not suggest args.query: %s", l)
			}
		case strings.HasPrefix(l, "rename "):
			gotRenames = append(gotRenames, l)
		case strings.HasPrefix(l, "definition "):
			def++
			if l != wantDef {
				t.Errorf("definition of args.limit:\n got %s\nwant %s", l, wantDef)
			}
		}
	}
	if !contains(got, wantDiag) {
		t.Errorf("no diagnostic starts with %q", wantDiag)
	}
	if diag != 1 {
		t.Errorf("%d diagnostics, want only the typo's", diag)
	}
	if def != 1 {
		t.Errorf("%d definitions of args.limit, want 1 (line %d)", def, declLine)
	}
	slices.Sort(gotRenames)
	if !slices.Equal(gotRenames, wantRenames) {
		t.Errorf("renaming limit to max:\n got %s\nwant %s", strings.Join(gotRenames, "\n     "), strings.Join(wantRenames, "\n     "))
	}
}

// renames are the report's lines for renaming the argument limit to max
// in text: its declaration's name and every args.limit, sorted.
func renames(file, text string) []string {
	var out []string
	for i, l := range strings.Split(text, "\n") {
		// Each marker, and where the name stands in it.
		for _, m := range []struct {
			text   string
			prefix int
		}{{`arg "limit"`, len(`arg "`)}, {"args.limit", len("args.")}} {
			marker, prefix := m.text, m.prefix
			for from := 0; ; {
				c := strings.Index(l[from:], marker)
				if c < 0 {
					break
				}
				start := from + c + prefix + 1
				out = append(out, fmt.Sprintf("rename %s %d:%d-%d:%d max", file, i+1, start, i+1, start+len("limit")))
				from += c + len(marker)
			}
		}
	}
	slices.Sort(out)
	return out
}

func contains(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
