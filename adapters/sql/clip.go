package sqladapter

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// Quoted text longer than these is cut in messages: a value to valueQuote
// characters; and text longer than nameQuote, which is longer than any
// identifier (Postgres allows 63 bytes, MySQL 64 characters), so cannot
// be the name of a table, column or constraint.
const (
	valueQuote = 40
	nameQuote  = 64
)

// longDigits matches a number too long to show whole.
var longDigits = lazyregexp.New(`[0-9]{41,}`)

// clipQuoted cuts each '...' or "..." span of a database message longer
// than max characters to its first valueQuote characters and "…", and any
// longer run of digits too, so that a long argument the database repeats
// (a 300-digit number, a 100 KB search text) does not flood the model. A
// cut number says how many digits it had, which is what the model needs.
func clipQuoted(msg string, max int) string {
	var sb strings.Builder
	for i := 0; i < len(msg); {
		q := msg[i]
		opens := (q == '"' || q == '\'') && (i == 0 || strings.IndexByte(" (:=,", msg[i-1]) >= 0)
		if !opens {
			sb.WriteByte(q)
			i++
			continue
		}
		end := strings.IndexByte(msg[i+1:], q)
		if end < 0 {
			end = len(msg) - i - 1
		}
		text, note := clipText(msg[i+1:i+1+end], max)
		sb.WriteByte(q)
		sb.WriteString(text)
		if i+1+end < len(msg) {
			sb.WriteByte(q)
		}
		sb.WriteString(note)
		i += end + 2
	}
	return longDigits.ReplaceAllStringFunc(sb.String(), func(d string) string {
		text, note := clipText(d, valueQuote)
		return text + note
	})
}

// clipText cuts s to valueQuote characters and "…" when it is longer than
// max; note gives a cut number's digit count.
func clipText(s string, max int) (text, note string) {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s, ""
	}
	if strings.Trim(s, "0123456789") == "" {
		note = fmt.Sprintf(" (%d digits)", n)
	}
	return string([]rune(s)[:valueQuote]) + "…", note
}
