package sqladapter

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/hcl/v2"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// sourcePos narrows r, where the literal text lit is written (src is the
// source text of r, "" when unknown), to the n bytes of lit at offset off.
//
// The source may differ from lit: a heredoc written <<- loses its
// indentation, and escapes ($${, \n) change the text. When src spells lit
// exactly, the result is exact; when the two only differ by what starts
// each line, it is exact too; when a line differs otherwise, the result is
// that whole line; without matching lines, it is r.
func sourcePos(r hcl.Range, lit, src string, off, n int) hcl.Range {
	if src == "" || off < 0 || off > len(lit) {
		return r
	}
	n = min(n, len(lit)-off)
	if i := strings.IndexByte(lit[off:off+n], '\n'); i >= 0 {
		n = i // a range ends on its line
	}
	if src == lit {
		return spanAt(r, src, off, n)
	}
	litLines, srcLines := strings.Split(lit, "\n"), strings.Split(src, "\n")
	if len(litLines) != len(srcLines) {
		return r
	}
	k := strings.Count(lit[:off], "\n")
	col := off - (strings.LastIndexByte(lit[:off], '\n') + 1)
	lineStart := 0
	for _, l := range srcLines[:k] {
		lineStart += len(l) + 1
	}
	litLine, srcLine := litLines[k], srcLines[k]
	if !strings.HasSuffix(srcLine, litLine) {
		return spanAt(r, src, lineStart, len(srcLine))
	}
	return spanAt(r, src, lineStart+len(srcLine)-len(litLine)+col, n)
}

// spanAt returns the range of the n bytes of src at offset off, src being
// the source text of r.
func spanAt(r hcl.Range, src string, off, n int) hcl.Range {
	start := advance(r.Start, src[:off])
	return hcl.Range{Filename: r.Filename, Start: start, End: advance(start, src[off:off+n])}
}

// advance moves p over the text s.
func advance(p hcl.Pos, s string) hcl.Pos {
	for _, c := range s {
		p.Byte += utf8.RuneLen(c)
		if c == '\n' {
			p.Line++
			p.Column = 1
			continue
		}
		p.Column++
	}
	return p
}

// pieceAt returns the length of what starts at text[off]: a word, or one
// character.
func pieceAt(text string, off int) int {
	if off >= len(text) {
		return 0
	}
	end := off
	for end < len(text) && isWordChar(text[end]) {
		end++
	}
	if end > off {
		return end - off
	}
	_, size := utf8.DecodeRuneInString(text[off:])
	return size
}

// rangeAt returns where the statement's byte at offset off (of Text) is
// written in the configuration, covering the word that starts there.
func (q *Query) rangeAt(off int) hcl.Range {
	for i := len(q.lits) - 1; i >= 0; i-- {
		l := q.lits[i]
		if off >= l.off && off <= l.off+len(l.text) {
			return sourcePos(l.rng, l.text, l.src, off-l.off, pieceAt(l.text, off-l.off))
		}
	}
	return q.Range
}

var (
	// mysqlNear finds where MySQL's syntax errors point: "... near
	// 'ORDR id' at line 2", the text from the error to the end.
	mysqlNear = lazyregexp.New(`(?s)near '(.*)' at line (\d+)$`)
	// namedInError finds the name a database says it does not know.
	namedInError = []*lazyregexp.Regexp{
		lazyregexp.New(`no such (?:column|table|function): (\S+)`),   // SQLite
		lazyregexp.New(`near "([^"]+)": syntax error`),               // SQLite
		lazyregexp.New(`Unknown column '([^']+)'`),                   // MySQL
		lazyregexp.New(`Table '(?:[^'.]+\.)?([^']+)' doesn't exist`), // MySQL
		lazyregexp.New(`FUNCTION (?:\S+\.)?(\S+) does not exist`),    // MySQL
	}
)

// errorOffset finds where in text, the statement sent, the database's
// error err points: Postgres gives a character position, MySQL a line for
// syntax errors; otherwise a name the error quotes, if text holds it just
// once. ok is false when the error says nothing usable.
func errorOffset(err error, text string) (off int, ok bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Position > 0 {
		return charOffset(text, int(pgErr.Position)-1)
	}
	msg := err.Error()
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		msg = myErr.Message
		if m := mysqlNear.FindStringSubmatch(msg); m != nil {
			return nearOffset(text, m[1], m[2])
		}
	}
	for _, re := range namedInError {
		if m := re.FindStringSubmatch(msg); m != nil {
			return uniqueWord(text, m[1])
		}
	}
	return 0, false
}

// charOffset returns the byte offset of the n-th character (from 0).
func charOffset(text string, n int) (int, bool) {
	i := 0
	for off := range text {
		if i == n {
			return off, true
		}
		i++
	}
	return 0, false
}

// nearOffset finds MySQL's "near" text on the given line (from 1) or
// after it; the text may be cut short by the server.
func nearOffset(text, near, line string) (int, bool) {
	n, err := strconv.Atoi(line)
	if err != nil || n < 1 {
		return 0, false
	}
	start := 0
	for range n - 1 {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return 0, false
		}
		start += i + 1
	}
	if near == "" {
		return len(strings.TrimRight(text, " \t\r\n;")), true // at the end
	}
	if i := strings.Index(text[start:], near); i >= 0 {
		return start + i, true
	}
	return start, true
}

// uniqueWord returns the offset of name in text when it occurs there once
// as a whole word (ignoring case), which makes it surely the one meant.
func uniqueWord(text, name string) (int, bool) {
	lower, want := strings.ToLower(text), strings.ToLower(name)
	found, count := 0, 0
	for i := 0; ; {
		j := strings.Index(lower[i:], want)
		if j < 0 {
			break
		}
		at := i + j
		end := at + len(want)
		if (at == 0 || !isWordChar(lower[at-1])) && (end == len(lower) || !isWordChar(lower[end])) {
			found = at
			count++
		}
		i = at + 1
	}
	return found, count == 1
}
