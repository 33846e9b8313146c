package lint

import "github.com/mcpdecl/mcpdecl/internal/diagcode"

// Rule is one check: a stable code, a name that may be used in its place
// in `ignore`, and the texts a report shows.
type Rule struct {
	// Code is the stable identifier, "MCPD" and three digits; the first
	// digit is the family (0 the validator itself, 1 descriptions, 2
	// names, 3 listing size, 4 annotations and writes, 5 unused
	// declarations, 6 apps, 7 authorization).
	Code string
	// Name is the code in words, e.g. "missing-description".
	Name string
	// Short is a one-line summary; Full says why the rule exists.
	Short, Full string
	// Lint is false for the codes that label the validator's own
	// diagnostics, which `ignore` cannot turn off.
	Lint bool
}

// The codes of the diagnostics that are not lint findings. An error of a
// known class has its class's code instead of CodeError (see
// [diagcode.Classes]: MCPD010 and on).
const (
	CodeError       = diagcode.Generic
	CodeWarning     = "MCPD002"
	CodeUnknownCode = "MCPD003"
)

// The lint codes.
const (
	CodeMissingDescription = "MCPD101"
	CodeShortDescription   = "MCPD102"
	CodeLongName           = "MCPD201"
	CodeUnclearName        = "MCPD202"
	CodeMixedNameStyle     = "MCPD203"
	CodeConfusableNames    = "MCPD204"
	CodeTokenBudget        = "MCPD301"
	CodeWriteWithoutHints  = "MCPD401"
	CodeReadOnlyWrites     = "MCPD402"
	CodeWritableBackend    = "MCPD403"
	CodeUnusedVariable     = "MCPD501"
	CodeUnusedLocal        = "MCPD502"
	CodeUnusedBackend      = "MCPD503"
	CodeUnusedArg          = "MCPD504"
	CodeUnusedApp          = "MCPD505"
	CodeAppBlockedOrigin   = "MCPD601"
	CodeUndiscoverableAuth = "MCPD701"
)

// Rules lists every code, in order. docs/lint.md has a section per code,
// whose anchor is the code in lower case.
var Rules = withErrorClasses([]Rule{
	{CodeError, "config-error", "Configuration error",
		"The configuration cannot be served as written, for a reason none of the classes of errors (MCPD010 and on) names.", false},
	{CodeWarning, "config-warning", "Configuration warning",
		"The compiler found something that works but is most likely a mistake.", false},
	{CodeUnknownCode, "unknown-lint-code", "Unknown code in lint ignore",
		"A lint block ignores a code that does not exist, so the finding it meant to silence is still reported.", false},
	{CodeMissingDescription, "missing-description", "Missing description",
		"A tool, resource, resource template, prompt or argument has no description. A model chooses tools and fills in arguments from their descriptions alone.", true},
	{CodeShortDescription, "short-description", "Description too short",
		"A description has fewer words than a model needs to tell what the item does and when to use it: 4 words for tools, resources, resource templates and prompts, 2 for arguments.", true},
	{CodeLongName, "long-name", "Name too long",
		"A name is longer than 40 characters. Clients put the server's name before a tool's and many cap the result at 64 characters; long names are also costly and hard to tell apart.", true},
	{CodeUnclearName, "unclear-name", "Unclear name",
		"A name says nothing about what the item does (do, run, exec, tool), is numbered (run2, search_3), or holds an abbreviation a model may misread (tmp, mgr, res).", true},
	{CodeMixedNameStyle, "mixed-name-style", "Mixed name styles",
		"Names of one kind mix snake_case, camelCase, PascalCase and kebab-case; a model guessing a name gets it wrong more often.", true},
	{CodeConfusableNames, "confusable-names", "Names differing only by case or separators",
		"Two names are equal but for case and the separators _ - and . (get_user, getUser); a model confuses them.", true},
	{CodeTokenBudget, "token-budget", "Tool listing over its token budget",
		"The tools/list result costs a model more tokens than the budget (8000 unless server { lint { token_budget = N } } says otherwise), on every request that lists the tools.", true},
	{CodeWriteWithoutHints, "write-without-hints", "Writing tool without destructive or idempotent hint",
		"A tool whose call writes (an HTTP POST, PUT, PATCH or DELETE, an SQL write, a command) says neither whether it destroys data nor whether repeating it is harmless; clients then assume the worst and ask the user every time.", true},
	{CodeReadOnlyWrites, "read-only-writes", "Read-only tool that writes",
		"A tool annotated read_only = true makes a call that writes; clients trust the hint and run it without asking.", true},
	{CodeWritableBackend, "writable-backend", "Writable backend used only for reads",
		"An SQL backend sets read_only = false, but every call made through it only reads; a read-only backend lets the database refuse writes.", true},
	{CodeUnusedVariable, "unused-variable", "Unused variable",
		"A variable is declared but nothing refers to it.", true},
	{CodeUnusedLocal, "unused-local", "Unused local value",
		"A local value is defined but nothing refers to it.", true},
	{CodeUnusedBackend, "unused-backend", "Unused backend",
		"A backend is declared but no call uses it.", true},
	{CodeUnusedArg, "unused-arg", "Unused argument",
		"An argument is declared but no call, step, result, error rule, content or message refers to it; the model fills it in for nothing.", true},
	{CodeUnusedApp, "unused-app", "App no tool links to",
		"An app is declared but no tool's ui block names it; hosts open an app when a tool linked to it is called, so nothing ever shows it.", true},
	{CodeAppBlockedOrigin, "app-blocked-origin", "App page refers to what its policy blocks",
		"An app's page loads, connects to or embeds a URL whose origin its csp block does not list (or a relative URL, a plugin or a form submission, which no app can use); the browser blocks it and the page breaks in the host.", true},
	{CodeUndiscoverableAuth, "undiscoverable-auth", "Auth block names no authorization server",
		"An auth block checks tokens by introspection but lists no authorization_servers, so the protected resource metadata names none and MCP clients cannot find where to get a token.", true},
})

// withErrorClasses puts the classes of errors after the validator's own
// codes (MCPD00x) and before the lint codes, in the order of the codes.
func withErrorClasses(rules []Rule) []Rule {
	var out []Rule
	for i, r := range rules {
		out = append(out, r)
		if r.Code == CodeUnknownCode {
			for _, c := range diagcode.Classes {
				out = append(out, Rule{Code: c.Code, Name: c.Name, Short: c.Short, Full: c.Full})
			}
			return append(out, rules[i+1:]...)
		}
	}
	return out
}

// IsError reports whether code labels errors (CodeError or a class of
// errors), rather than warnings.
func IsError(code string) bool {
	if code == CodeError {
		return true
	}
	for _, c := range diagcode.Classes {
		if c.Code == code {
			return true
		}
	}
	return false
}

// RuleOf returns the rule of a code or name, and whether there is one.
func RuleOf(codeOrName string) (Rule, bool) {
	for _, r := range Rules {
		if r.Code == codeOrName || r.Name == codeOrName {
			return r, true
		}
	}
	return Rule{}, false
}
