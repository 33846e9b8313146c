package eval

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// FileError is a file() or filebase64() that could not read its file. Its
// text names the file only as the configuration or the caller wrote it,
// never as an absolute server path, so it can reach the client.
type FileError struct {
	// Name is the path as written, or the file name given inside a folder.
	Name string
	// Reason completes the sentence "file <Name> ...".
	Reason string
	// Missing is true when there is no file the call may read: absent,
	// not a regular file, or refused because it would leave its folder.
	Missing bool
	// Path is the server path tried, for the server's log; never shown
	// to a client.
	Path string
}

func (e *FileError) Error() string {
	return fmt.Sprintf("file %q %s", shortName(e.Name), e.Reason)
}

// FileErrorOf returns the FileError behind a failed evaluation, if any.
func FileErrorOf(diags hcl.Diagnostics) *FileError {
	for _, d := range diags {
		extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
		if !ok {
			continue
		}
		var fe *FileError
		if errors.As(extra.FunctionCallError(), &fe) {
			return fe
		}
	}
	return nil
}

// shortName keeps a caller's value short enough for a message.
func shortName(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// ReadConfigFile reads a path written in the configuration, relative to
// baseDir (the directory of the file the expression is in), up to
// MaxFileBytes. Its errors are FileErrors.
func ReadConfigFile(baseDir, p string) ([]byte, error) { return readConfigFile(baseDir, p) }

func readConfigFile(baseDir, p string) ([]byte, error) {
	full := p
	if !filepath.IsAbs(p) {
		full = filepath.Join(baseDir, p)
	}
	shown := p
	if filepath.IsAbs(p) {
		shown = filepath.Base(p)
	}
	// Opened without blocking: opening a named pipe would otherwise wait
	// for a writer, and hang a load or every read of a resource whose file
	// was replaced by one. readCapped then refuses it.
	f, err := os.OpenFile(full, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &FileError{Name: shown, Reason: "was not found (paths are relative to the configuration file)", Missing: true, Path: full}
		}
		return nil, &FileError{Name: shown, Reason: "cannot be read: " + pathErrorText(err), Path: full}
	}
	defer f.Close()
	return readCapped(f, shown, full)
}

// MaxFileBytes is the largest file file() and filebase64() read: the
// content is held in memory and sent in one message, and a file that
// never ends (a device, a log still being written) must not exhaust the
// server's memory.
const MaxFileBytes = 10 << 20

// readCapped reads f whole, or refuses it when it holds more than
// MaxFileBytes: known from its size before reading when it is a regular
// file, and from the bytes read for anything else.
func readCapped(f *os.File, shown, full string) ([]byte, error) {
	tooLarge := &FileError{Name: shown, Reason: "is larger than 10 MiB, the most file() and filebase64() read; serve a smaller file, or the large one through a backend", Path: full}
	st, err := f.Stat()
	switch {
	case err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0:
		return nil, &FileError{Name: shown, Reason: "is a named pipe or socket, not a file; name a regular file", Path: full}
	case err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes:
		return nil, tooLarge
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, &FileError{Name: shown, Reason: "cannot be read: " + pathErrorText(err), Path: full}
	}
	if len(b) > MaxFileBytes {
		return nil, tooLarge
	}
	return b, nil
}

// pathErrorText is the reason of an os error without the path it names.
func pathErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ReadInFolder reads the file called name inside folder (relative to
// baseDir), and never anything outside it. name is usually a caller's
// value: it may name a file in a subfolder, but it may not be absolute or
// hold "..", a backslash or a NUL, and the folder is opened as an os.Root,
// which refuses every path and symbolic link that resolves outside it.
// Only regular files are read (a FIFO would block the call).
func ReadInFolder(baseDir, folder, name string) ([]byte, error) {
	if reason := badFileName(name); reason != "" {
		return nil, &FileError{Name: name, Reason: reason, Missing: true}
	}
	if !filepath.IsAbs(folder) {
		folder = filepath.Join(baseDir, folder)
	}
	notFound := &FileError{Name: name, Reason: "was not found", Missing: true, Path: filepath.Join(folder, name)}
	root, err := os.OpenRoot(folder)
	if err != nil {
		return nil, notFound
	}
	defer root.Close()
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, notFound
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, notFound
	}
	return readCapped(f, name, notFound.Path)
}

// badFileName says why name cannot name a file inside a folder, or "".
func badFileName(name string) string {
	switch {
	case name == "":
		return "is empty; give a file name"
	case strings.ContainsRune(name, 0):
		return "holds a NUL byte; file names cannot"
	case strings.ContainsRune(name, '\\'):
		return "holds a backslash; separate folders with \"/\""
	case strings.HasPrefix(name, "/") || filepath.IsAbs(name):
		return "is an absolute path; give a name inside the folder"
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "holds \"..\"; give a name inside the folder"
		}
	}
	return ""
}

// CheckFileCalls reports each file() and filebase64() in expr, an
// expression evaluated per call, whose path depends on values known only
// when called (args, answers): such a path could name any file on the
// server. The file must be named inside a folder the configuration fixes,
// as file("notes", args.name), which ReadInFolder confines. It also
// reports a folder that is computed per call or does not exist.
func (s *Static) CheckFileCalls(expr hcl.Expression, files map[string]*hcl.File) hcl.Diagnostics {
	if !mayHoldCall(expr) {
		return nil
	}
	var diags hcl.Diagnostics
	eachCall(expr, files, func(call *hclsyntax.FunctionCallExpr) {
		if call.Name != "file" && call.Name != "filebase64" {
			return
		}
		switch len(call.Args) {
		case 1:
			if perCall(call.Args[0]) {
				diags = append(diags, unconfinedDiag(call, files))
			}
		case 2:
			diags = append(diags, s.checkFolder(call, files)...)
		}
	})
	return diags
}

func unconfinedDiag(call *hclsyntax.FunctionCallExpr, files map[string]*hcl.File) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "File path from the arguments",
		Detail: fmt.Sprintf("This path is built from values a caller chooses, so a caller could read any file on the server (\"../../etc/passwd\"). "+
			"Name the folder and the file inside it as two arguments: %s. The file is then read only from inside that folder: "+
			"no \"..\", absolute path or symbolic link can lead out of it.", confinedSuggestion(call, files)),
		Subject: call.Args[0].Range().Ptr(),
	}
}

// checkFolder checks the folder of file(folder, name): fixed by the
// configuration, and there.
func (s *Static) checkFolder(call *hclsyntax.FunctionCallExpr, files map[string]*hcl.File) hcl.Diagnostics {
	folder := call.Args[0]
	if perCall(folder) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Folder from the arguments",
			Detail:   fmt.Sprintf("The folder of %s(folder, name) must be fixed by the configuration, as in %s(\"notes\", args.name); only the file name inside it may come from the arguments.", call.Name, call.Name),
			Subject:  folder.Range().Ptr(),
		}}
	}
	if s == nil {
		return nil
	}
	v, diags := folder.Value(s.Context(folder))
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return nil // evaluating the whole expression reports it
	}
	dir := v.AsString()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(call.Range().Filename), dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Folder not found",
			Detail:   fmt.Sprintf("%q is not a folder. A relative folder is relative to the configuration file.", v.AsString()),
			Subject:  folder.Range().Ptr(),
		}}
	}
	if holdsConfig(dir, call.Range().Filename) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagWarning,
			Summary:  "Folder holds the configuration",
			Detail: fmt.Sprintf("%q holds this configuration file, so a caller can read it and every file next to it (an .env file, keys, other configurations). Keep the files callers may read in a folder of their own, as in %s(\"files\", %s).",
				v.AsString(), call.Name, nameSource(call, files)),
			Subject: folder.Range().Ptr(),
		}}
	}
	return nil
}

// holdsConfig reports whether dir is the folder of the configuration
// file or one above it.
func holdsConfig(dir, configFile string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	cfg, err := filepath.Abs(configFile)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(abs, cfg)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// nameSource is the source of file(folder, name)'s name, for a message.
func nameSource(call *hclsyntax.FunctionCallExpr, files map[string]*hcl.File) string {
	if src, ok := sourceOf(call.Args[1].Range(), files); ok {
		return string(src)
	}
	return "<file name>"
}

// perCall reports whether e refers to anything but var and local, whose
// values are fixed when the configuration is loaded.
func perCall(e hcl.Expression) bool {
	for _, tr := range e.Variables() {
		if root := tr.RootName(); root != "var" && root != "local" {
			return true
		}
	}
	return false
}

// eachCall calls visit for every function call in expr, of either syntax:
// strings of the JSON syntax are walked as the templates they are.
func eachCall(expr hcl.Expression, files map[string]*hcl.File, visit func(*hclsyntax.FunctionCallExpr)) {
	if n, ok := expr.(hclsyntax.Node); ok {
		hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
			if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
				visit(call)
			}
			return nil
		})
		return
	}
	if items, d := hcl.ExprList(expr); !d.HasErrors() && items != nil {
		for _, it := range items {
			eachCall(it, files, visit)
		}
		return
	}
	if pairs, d := hcl.ExprMap(expr); !d.HasErrors() && pairs != nil {
		for _, kv := range pairs {
			eachCall(kv.Key, files, visit)
			eachCall(kv.Value, files, visit)
		}
		return
	}
	if t, ok := reparseJSONString(expr, files); ok {
		eachCall(t, files, visit)
	}
}

// confinedSuggestion rewrites file("notes/${args.name}") as
// file("notes", args.name) for the message, or gives the general form.
func confinedSuggestion(call *hclsyntax.FunctionCallExpr, files map[string]*hcl.File) string {
	general := call.Name + "(\"<folder>\", <file name from the arguments>)"
	t, ok := call.Args[0].(*hclsyntax.TemplateExpr)
	if !ok || len(t.Parts) < 2 {
		return general
	}
	lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || !lit.Val.IsKnown() {
		return general
	}
	prefix := lit.Val.AsString()
	slash := strings.LastIndexByte(prefix, '/')
	if slash <= 0 {
		return general
	}
	var rest strings.Builder
	rest.WriteString(escapeTemplate(prefix[slash+1:]))
	for _, p := range t.Parts[1:] {
		if l, ok := p.(*hclsyntax.LiteralValueExpr); ok && l.Val.Type() == cty.String && l.Val.IsKnown() {
			rest.WriteString(escapeTemplate(l.Val.AsString()))
			continue
		}
		src, ok := sourceOf(p.Range(), files)
		if !ok {
			return general
		}
		if rest.Len() == 0 && len(t.Parts) == 2 {
			return fmt.Sprintf("%s(%q, %s)", call.Name, prefix[:slash], src)
		}
		rest.WriteString("${" + string(src) + "}")
	}
	return fmt.Sprintf("%s(%q, \"%s\")", call.Name, prefix[:slash], rest.String())
}

var templateEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "${", "$${", "%{", "%%{")

func escapeTemplate(s string) string { return templateEscaper.Replace(s) }
