package sqladapter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Dialect is a SQL dialect: it decides the placeholder syntax and a few
// lexical rules (backslash escapes, # comments, dollar quotes).
type Dialect string

// The dialects mcpdecl speaks.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
)

// Query is a compiled SQL template: the statement text with dialect
// placeholders (? or $1..$n) and, in order, the expressions whose values are
// bound to them at call time. No argument value ever becomes SQL text.
type Query struct {
	Text   string
	Params []hcl.Expression
	// Verb is the statement's first keyword, in capitals (SELECT, WITH,
	// INSERT, ...).
	Verb string
	// Writes is true when the statement could not run in a read-only
	// call: it does not start with SELECT, WITH or VALUES, or it holds a
	// keyword that writes or locks rows (INSERT, UPDATE, DELETE, ...).
	Writes bool
	// Returning is true when the statement holds the keyword RETURNING
	// (outside strings and comments), so a write yields rows.
	Returning bool
	// Range is where the query is written, for diagnostics of
	// `mcpdecl check`.
	Range hcl.Range

	// argNames[i] is "x" when Params[i] is exactly args.x, which the
	// runtime reads without evaluating an expression.
	argNames []string
	// lits are the literal parts, at their offsets in Text, so that a
	// position the database reports can be shown in the configuration.
	lits []literal
}

// CompileQuery compiles the query template expr for dialect d. Each ${...}
// becomes a placeholder whose value is bound as a parameter; the
// interpolations are not type-checked here. With readOnly, the statement
// must be a query (SELECT, WITH or VALUES) that writes nothing.
//
// It refuses: template directives; interpolations inside quotes or
// comments, or where an identifier (a table or column name) belongs;
// placeholders written by hand; more than one statement; and an expression
// that is not a string template (such as a bare reference), which would
// make the whole statement a parameter.
func CompileQuery(expr hcl.Expression, d Dialect, readOnly bool, files map[string]*hcl.File) (*Query, hcl.Diagnostics) {
	parts, diags := eval.Parts(expr, files)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(parts) == 1 && parts[0].Expr != nil {
		return nil, hcl.Diagnostics{check.Error("Query is not a string template",
			"query must be SQL text written as a quoted string or heredoc, with ${...} only where a value goes, as in \"SELECT * FROM orders WHERE id = ${args.id}\". Each ${...} is bound as a parameter.",
			expr.Range())}
	}
	ranges := check.PartRanges(expr)
	if len(ranges) != len(parts) {
		ranges = nil
	}
	c := &compiler{dialect: d, readOnly: readOnly, files: files, whole: expr.Range()}
	var sb strings.Builder
	for i, p := range parts {
		if p.Expr != nil {
			sb.WriteByte(hole)
			c.params = append(c.params, p.Expr)
			continue
		}
		seg := literal{off: sb.Len(), text: p.Literal, rng: expr.Range()}
		if ranges != nil {
			seg.rng, seg.src = ranges[i], check.Source(ranges[i], files)
		}
		c.lits = append(c.lits, seg)
		sb.WriteString(p.Literal)
	}
	return c.compile(sb.String())
}

// CompileText compiles SQL text without interpolations, such as the
// contents of file("query.sql"); r is where the text came from.
func CompileText(text string, r hcl.Range, d Dialect, readOnly bool) (*Query, hcl.Diagnostics) {
	c := &compiler{dialect: d, readOnly: readOnly, whole: r, lits: []literal{{text: text, rng: r}}}
	return c.compile(text)
}

// hole stands for an interpolation in the text being lexed.
const hole = 0

type literal struct {
	off  int // offset in the lexed text (in Query.lits: in Query.Text)
	text string
	rng  hcl.Range
	// src is the source text of rng when rng is the range of exactly this
	// literal part (which may spell it differently: escapes, a heredoc's
	// indentation); else "".
	src string
}

type compiler struct {
	dialect  Dialect
	readOnly bool
	files    map[string]*hcl.File
	whole    hcl.Range
	lits     []literal
	params   []hcl.Expression
	diags    hcl.Diagnostics
	src      string // the text being compiled, with a NUL per interpolation
}

type tokKind int

const (
	tWord tokKind = iota
	tNumber
	tString
	tIdent // quoted identifier
	tPunct
	tHole
	tSemicolon
)

type token struct {
	kind tokKind
	text string // words in capitals
	off  int
	hole int // index of the interpolation, for tHole
}

// rangeAt returns the range of the character at offset off of the text.
func (c *compiler) rangeAt(off int) hcl.Range {
	for i := len(c.lits) - 1; i >= 0; i-- {
		l := c.lits[i]
		if off >= l.off && off <= l.off+len(l.text) {
			_, n := utf8.DecodeRuneInString(l.text[off-l.off:])
			return sourcePos(l.rng, l.text, l.src, off-l.off, n)
		}
	}
	return c.whole
}

func (c *compiler) errorAt(off int, summary, detail string) {
	c.diags = append(c.diags, check.Error(summary, detail, c.rangeAt(off)))
}

func (c *compiler) holeError(h int, summary, detail string) {
	c.diags = append(c.diags, check.Error(summary, detail, c.params[h].Range()))
}

func (c *compiler) compile(text string) (*Query, hcl.Diagnostics) {
	for _, l := range c.lits {
		if i := strings.IndexByte(l.text, hole); i >= 0 {
			c.errorAt(l.off+i, "Invalid character in query", "The query holds a NUL character, which SQL text cannot contain. Remove it.")
			return nil, c.diags
		}
	}
	c.src = text
	toks := c.lex(text)
	c.checkHoles(toks)
	c.checkPipes(toks)
	verb := c.checkStatement(toks)
	if c.diags.HasErrors() {
		return nil, c.diags
	}
	returning := slices.ContainsFunc(toks, func(t token) bool { return t.kind == tWord && t.text == "RETURNING" })
	q := &Query{Params: c.params, Verb: verb, Returning: returning, Writes: writes(verb, toks)}
	q.Text, q.lits = c.placeholders(text)
	q.argNames = make([]string, len(q.Params))
	for i, p := range q.Params {
		q.argNames[i], _ = argsAttr(p)
	}
	return q, c.diags
}

// placeholders replaces each interpolation of text by its placeholder (?
// or $n), and returns the literal parts at their offsets in the result.
func (c *compiler) placeholders(text string) (string, []literal) {
	var sb strings.Builder
	lits := slices.Clone(c.lits)
	next, n := 0, 0
	for i := 0; i <= len(text); i++ {
		for next < len(lits) && lits[next].off == i {
			lits[next].off = sb.Len()
			next++
		}
		switch {
		case i == len(text):
		case text[i] != hole:
			sb.WriteByte(text[i])
		case c.dialect == Postgres:
			n++
			sb.WriteString("$" + strconv.Itoa(n))
		default:
			n++
			sb.WriteByte('?')
		}
	}
	return sb.String(), lits
}

func isWordStart(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

func isWordChar(b byte) bool {
	return isWordStart(b) || b >= '0' && b <= '9' || b == '$'
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

const (
	stringDetail = "Remove the quotes around the interpolation: the value is bound as a parameter, so it is passed as a string without them. To match part of a string, build it in SQL, as in name LIKE %s."
	identDetail  = "Table and column names cannot be parameters: a placeholder stands for a value only. Write the name literally; to choose among a few names, write one query per choice or a CASE expression over a bound value."
	pipesDetail  = "On MySQL and MariaDB || means OR unless sql_mode has PIPES_AS_CONCAT; use CONCAT() to join strings, as in name LIKE CONCAT('%', ${args.q}, '%'), or write OR where a logical OR is meant."
)

// stringDetail tells how to build a string around a value in SQL: MySQL
// and MariaDB read || as OR.
func (c *compiler) stringDetail() string {
	if c.dialect == MySQL {
		return fmt.Sprintf(stringDetail, "CONCAT('%', ${args.q}, '%')")
	}
	return fmt.Sprintf(stringDetail, "'%' || ${args.q} || '%'")
}

// lex splits text into tokens, skipping spaces and comments, and reports
// interpolations inside quotes and comments.
func (c *compiler) lex(s string) []token {
	var toks []token
	h := 0 // interpolations seen so far
	// holesIn reports every interpolation in s[from:to].
	holesIn := func(from, to int, summary, detail string) {
		for i := from; i < to; i++ {
			if s[i] == hole {
				c.holeError(h, summary, detail)
				h++
			}
		}
	}
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == hole:
			toks = append(toks, token{kind: tHole, off: i, hole: h})
			h++
			i++
		case isSpace(b):
			i++
		case b == '-' && strings.HasPrefix(s[i:], "--") && (c.dialect != MySQL || i+2 == len(s) || isSpace(s[i+2])),
			b == '#' && c.dialect == MySQL:
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			holesIn(i, i+end, "Interpolation inside a SQL comment", "A ${...} inside a comment would become a placeholder that the database never sees. Move it out of the comment or remove it.")
			i += end
		case b == '/' && strings.HasPrefix(s[i:], "/*"):
			end := c.blockComment(s, i)
			holesIn(i, end, "Interpolation inside a SQL comment", "A ${...} inside a comment would become a placeholder that the database never sees. Move it out of the comment or remove it.")
			i = end
		case b == '\'':
			backslash := c.dialect == MySQL || c.dialect == Postgres && i > 0 && (s[i-1] == 'E' || s[i-1] == 'e') && (i < 2 || !isWordChar(s[i-2]))
			end := c.quoted(s, i, '\'', backslash, "Unterminated SQL string", "string")
			holesIn(i, end, "Interpolation inside a SQL string", c.stringDetail())
			toks = append(toks, token{kind: tString, off: i})
			i = end
		case b == '"' && c.dialect == MySQL:
			end := c.quoted(s, i, '"', true, "Unterminated SQL string", "string")
			holesIn(i, end, "Interpolation inside a SQL string", c.stringDetail())
			toks = append(toks, token{kind: tString, off: i})
			i = end
		case b == '"' || b == '`' && c.dialect != Postgres:
			end := c.quoted(s, i, b, false, "Unterminated quoted identifier", "identifier")
			holesIn(i, end, "Interpolation inside a quoted identifier", identDetail)
			toks = append(toks, token{kind: tIdent, off: i})
			i = end
		case b == '[' && c.dialect == SQLite:
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				c.errorAt(i, "Unterminated quoted identifier", "This [identifier] has no closing ]. Add it.")
				end = len(s) - i - 1
			}
			holesIn(i, i+end+1, "Interpolation inside a quoted identifier", identDetail)
			toks = append(toks, token{kind: tIdent, off: i})
			i += end + 1
		case b == '$' && c.dialect == Postgres && i+1 < len(s) && isDigit(s[i+1]):
			c.placeholderError(i)
			i++
		case b == '$' && c.dialect == Postgres && c.dollarTag(s, i) != "":
			tag := c.dollarTag(s, i)
			end := strings.Index(s[i+len(tag):], tag)
			if end < 0 {
				c.errorAt(i, "Unterminated SQL string", fmt.Sprintf("This dollar-quoted string has no closing %s. Add it.", tag))
				end = len(s) - i - len(tag)
			} else {
				end += len(tag)
			}
			holesIn(i, i+len(tag)+end, "Interpolation inside a SQL string", c.stringDetail())
			toks = append(toks, token{kind: tString, off: i})
			i += len(tag) + end
		case b == '?' && c.dialect != Postgres,
			// SQLite reads :name, @name and $name as parameters, and a
			// name may be digits: $1 is the parameter "1", never bound.
			(b == ':' || b == '@' || b == '$') && c.dialect == SQLite && i+1 < len(s) && (isWordStart(s[i+1]) || isDigit(s[i+1])):
			c.placeholderError(i)
			i++
		case isWordStart(b):
			j := i + 1
			for j < len(s) && isWordChar(s[j]) {
				j++
			}
			toks = append(toks, token{kind: tWord, text: strings.ToUpper(s[i:j]), off: i})
			i = j
		case isDigit(b) || b == '.' && i+1 < len(s) && isDigit(s[i+1]):
			j := i + 1
			for j < len(s) && (isWordChar(s[j]) || s[j] == '.' || (s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			toks = append(toks, token{kind: tNumber, off: i})
			i = j
		case b == ';':
			toks = append(toks, token{kind: tSemicolon, off: i})
			i++
		default:
			toks = append(toks, token{kind: tPunct, text: s[i : i+1], off: i})
			i++
		}
	}
	return toks
}

func (c *compiler) placeholderError(off int) {
	c.errorAt(off, "Placeholder in query text",
		"Do not write placeholders (?, $1, :name) yourself: write ${args.<name>} where the value goes, and mcpdecl binds it as a parameter.")
}

// quoted returns the offset just past the quoted text that starts at s[i],
// where a doubled quote (and, with backslash, \x) escapes.
func (c *compiler) quoted(s string, i int, q byte, backslash bool, summary, what string) int {
	for j := i + 1; j < len(s); j++ {
		switch {
		case backslash && s[j] == '\\':
			j++
		case s[j] == q && j+1 < len(s) && s[j+1] == q:
			j++
		case s[j] == q:
			return j + 1
		}
	}
	c.errorAt(i, summary, fmt.Sprintf("This %s opened with %c is never closed. Add the closing %c (write %c%c for a %c inside it).", what, q, q, q, q, q))
	return len(s)
}

// blockComment returns the offset just past the /* */ comment at s[i].
// Postgres comments nest.
func (c *compiler) blockComment(s string, i int) int {
	depth := 0
	for j := i; j+1 < len(s); j++ {
		switch {
		case s[j] == '/' && s[j+1] == '*':
			if depth == 0 || c.dialect == Postgres {
				depth++
			}
			j++
		case s[j] == '*' && s[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	c.errorAt(i, "Unterminated SQL comment", "This /* comment is never closed. Add */.")
	return len(s)
}

// dollarTag returns the Postgres dollar-quote opener at s[i] ($$ or
// $tag$), or "".
func (c *compiler) dollarTag(s string, i int) string {
	j := i + 1
	if j < len(s) && isWordStart(s[j]) && s[j] < 0x80 {
		for j < len(s) && (isWordStart(s[j]) || isDigit(s[j])) && s[j] < 0x80 {
			j++
		}
	}
	if j < len(s) && s[j] == '$' && (i == 0 || !isWordChar(s[i-1])) {
		return s[i : j+1]
	}
	return ""
}

// checkPipes warns of || in a MySQL-dialect query: it means OR there unless
// the server's sql_mode says otherwise, so a concatenation written as in
// standard SQL silently becomes a logical test. Strings and comments were
// skipped by the lexer, so only operators are seen.
func (c *compiler) checkPipes(toks []token) {
	if c.dialect != MySQL {
		return
	}
	for i := 1; i < len(toks); i++ {
		prev, t := toks[i-1], toks[i]
		if prev.kind == tPunct && prev.text == "|" && t.kind == tPunct && t.text == "|" && t.off == prev.off+1 {
			c.diags = append(c.diags, check.Warning("|| means OR on MySQL", pipesDetail, c.rangeAt(prev.off)))
			i++ // ||| is one warning
		}
	}
}

// identKeywords are the keywords after which a name, not a value, follows.
var identKeywords = []string{"FROM", "JOIN", "INTO", "UPDATE", "TABLE", "AS"}

// valueFromFuncs are functions whose argument lists use FROM before a value.
var valueFromFuncs = []string{"EXTRACT", "SUBSTRING", "TRIM", "OVERLAY"}

// checkHoles reports interpolations where an identifier belongs: glued to
// a name (col_${x}, t.${x}) or after FROM, JOIN, INTO, UPDATE, TABLE, AS,
// ORDER BY, GROUP BY or PARTITION BY.
func (c *compiler) checkHoles(toks []token) {
	var parens []string // the word before each open parenthesis
	for i, t := range toks {
		switch {
		case t.kind == tPunct && t.text == "(":
			before := ""
			if i > 0 && toks[i-1].kind == tWord {
				before = toks[i-1].text
			}
			parens = append(parens, before)
		case t.kind == tPunct && t.text == ")" && len(parens) > 0:
			parens = parens[:len(parens)-1]
		case t.kind == tHole:
			if c.identPosition(toks, i, parens) {
				c.holeError(t.hole, "Interpolation in identifier position", identDetail)
			}
		}
	}
}

func (c *compiler) identPosition(toks []token, i int, parens []string) bool {
	t := toks[i]
	text := c.src
	if t.off > 0 && (isWordChar(text[t.off-1]) || text[t.off-1] == '.') {
		return true
	}
	if t.off+1 < len(text) && (isWordChar(text[t.off+1]) || text[t.off+1] == '.') {
		return true
	}
	if i == 0 {
		return false
	}
	prev := toks[i-1]
	if prev.kind != tWord {
		return false
	}
	switch prev.text {
	case "BY":
		return i >= 2 && toks[i-2].kind == tWord && slices.Contains([]string{"ORDER", "GROUP", "PARTITION"}, toks[i-2].text)
	case "FROM":
		if i >= 2 && toks[i-2].kind == tWord && toks[i-2].text == "DISTINCT" {
			return false
		}
		if len(parens) > 0 && slices.Contains(valueFromFuncs, parens[len(parens)-1]) {
			return false
		}
		return true
	}
	return slices.Contains(identKeywords, prev.text)
}

// statementVerbs are the keywords a statement may start with.
var statementVerbs = []string{
	"SELECT", "WITH", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT",
	"CREATE", "DROP", "ALTER", "TRUNCATE", "RENAME", "COMMENT", "GRANT", "REVOKE",
	"EXPLAIN", "DESCRIBE", "DESC", "SHOW", "PRAGMA", "ANALYZE", "ANALYSE", "VACUUM", "REINDEX", "CLUSTER", "REFRESH",
	"CALL", "EXEC", "EXECUTE", "DO", "COPY", "LOAD", "LOCK", "UNLOCK", "SET", "RESET", "USE",
	"BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "ATTACH", "DETACH",
	"LISTEN", "NOTIFY", "UNLISTEN", "DECLARE", "FETCH", "MOVE", "CLOSE", "PREPARE", "DEALLOCATE", "CHECKPOINT", "HANDLER",
}

var readVerbs = []string{"SELECT", "WITH", "VALUES"}

// writes reports whether a statement needs a writable call: the same test
// a read-only call applies to its statement.
func writes(verb string, toks []token) bool {
	if !slices.Contains(readVerbs, verb) {
		return true
	}
	return slices.ContainsFunc(toks, func(t token) bool { return t.kind == tWord && slices.Contains(writeWords, t.text) })
}

// writeWords are keywords that make a statement write (or lock) rows.
var writeWords = []string{"INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "INTO"}

// checkStatement checks there is one statement and, for read-only calls,
// that it only reads. It returns the statement's first keyword.
func (c *compiler) checkStatement(toks []token) string {
	for i, t := range toks {
		if t.kind != tSemicolon {
			continue
		}
		for _, u := range toks[i+1:] {
			if u.kind != tSemicolon {
				c.errorAt(t.off, "Multiple SQL statements",
					"A query holds one statement; this ; is followed by another. Split them into separate tools, or remove the extra text.")
				return ""
			}
		}
	}
	first := -1
	for i, t := range toks {
		if t.kind == tPunct && t.text == "(" {
			continue
		}
		first = i
		break
	}
	if first < 0 {
		c.diags = append(c.diags, check.Error("Empty SQL query", "query holds no SQL statement. Write one, such as \"SELECT * FROM orders WHERE id = ${args.id}\".", c.whole))
		return ""
	}
	t := toks[first]
	if t.kind != tWord {
		if t.kind == tHole {
			c.holeError(t.hole, "Interpolation in identifier position", "A query must start with a SQL keyword such as SELECT, not with an interpolation: SQL text cannot come from a value.")
		} else {
			c.errorAt(t.off, "Invalid SQL statement", "A query must start with a SQL keyword such as SELECT, INSERT, UPDATE or DELETE.")
		}
		return ""
	}
	verb := t.text
	if !slices.Contains(statementVerbs, verb) {
		c.errorAt(t.off, "Invalid SQL statement",
			fmt.Sprintf("A query must start with a SQL keyword such as SELECT, INSERT, UPDATE or DELETE, not %q.", verb))
		return ""
	}
	if !c.readOnly {
		return verb
	}
	if !slices.Contains(readVerbs, verb) {
		c.errorAt(t.off, "Write statement in read-only call",
			fmt.Sprintf("This call is read-only, so its statement must start with SELECT, WITH or VALUES, not %s. Backends and calls are read-only unless they set read_only = false; set it on both to allow writes.", verb))
		return verb
	}
	for _, u := range toks[first+1:] {
		if u.kind == tWord && slices.Contains(writeWords, u.text) {
			c.errorAt(u.off, "Write statement in read-only call",
				fmt.Sprintf("This call is read-only, but the statement contains %s, which writes or locks rows. Remove it, or set read_only = false on the backend and the call.", u.text))
			break
		}
	}
	return verb
}
