package langindex

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// literal is the value of a string written in the source, with the file
// offset of each of its bytes, so that a name found in the value maps back
// to the exact bytes that wrote it, escapes and all.
type literal struct {
	text string
	offs []int // file offset of each byte of text, and one past the end
	// interpolated says the string holds a ${ } or %{ } of HCL's own,
	// which is not text.
	interpolated bool
}

// span returns the file offsets of text[from:to].
func (l *literal) span(from, to int) (int, int) {
	return l.offs[from], l.offs[to]
}

// decodeString reads the string literal src[start:end]: a quoted string
// (native or JSON escapes) or a heredoc. With hclEscapes, $${ and %%{
// are read as the ${ and %{ they stand for; without, they are kept as
// written, for parsing the value as a template. ok is false when src
// holds no string there.
func decodeString(src []byte, start, end int, hclEscapes bool) (lit *literal, ok bool) {
	if start < 0 || end > len(src) || start >= end {
		return nil, false
	}
	raw := src[start:end]
	switch {
	case raw[0] == '"':
		return decodeQuoted(src, start, end, hclEscapes), true
	case bytes.HasPrefix(raw, []byte("<<")):
		return decodeHeredoc(src, start, end, hclEscapes), true
	}
	return nil, false
}

func decodeQuoted(src []byte, start, end int, hclEscapes bool) *literal {
	lit := &literal{}
	var text []byte
	i := start + 1
	for i < end {
		c := src[i]
		if c == '"' {
			break
		}
		n, value := 1, []byte{c}
		switch {
		case c == '\\' && i+1 < end:
			n, value = unescape(src[i:end])
		case hclEscapes && (c == '$' || c == '%') && i+2 < end && src[i+1] == c && src[i+2] == '{':
			n, value = 3, []byte{c, '{'} // $${ is a literal ${
		case (c == '$' || c == '%') && i+1 < end && src[i+1] == '{':
			lit.interpolated = true
		}
		for range value {
			lit.offs = append(lit.offs, i)
		}
		text = append(text, value...)
		i += n
	}
	lit.offs = append(lit.offs, i)
	lit.text = string(text)
	return lit
}

// unescape decodes the escape at the start of raw (which starts with a
// backslash): how many bytes it takes and the bytes it stands for.
func unescape(raw []byte) (int, []byte) {
	n := 2
	switch raw[1] {
	case 'u':
		n = 6
	case 'U':
		n = 10
	}
	n = min(n, len(raw))
	s, err := strconv.Unquote(`"` + string(raw[:n]) + `"`)
	if err != nil {
		if raw[1] == '/' { // JSON's \/
			return 2, []byte{'/'}
		}
		return n, raw[:n]
	}
	if r, _ := utf8.DecodeRuneInString(s); r >= 0xD800 && r <= 0xDFFF {
		return n, []byte(string(utf8.RuneError))
	}
	return n, []byte(s)
}

// decodeHeredoc reads <<EOT ... EOT. The text is the lines between the
// markers as written: the indentation <<- strips is only whitespace,
// which neither expr-lang nor a name cares about.
func decodeHeredoc(src []byte, start, end int, hclEscapes bool) *literal {
	lit := &literal{}
	nl := bytes.IndexByte(src[start:end], '\n')
	if nl < 0 {
		lit.offs = []int{end}
		return lit
	}
	from := start + nl + 1
	to := end
	if last := bytes.LastIndexByte(src[from:end], '\n'); last >= 0 {
		to = from + last + 1 // the closing marker's line is not text
	}
	var text []byte
	for i := from; i < to; {
		c := src[i]
		n, value := 1, []byte{c}
		switch {
		case hclEscapes && (c == '$' || c == '%') && i+2 < to && src[i+1] == c && src[i+2] == '{':
			n, value = 3, []byte{c, '{'}
		case (c == '$' || c == '%') && i+1 < to && src[i+1] == '{':
			lit.interpolated = true
		}
		for range value {
			lit.offs = append(lit.offs, i)
		}
		text = append(text, value...)
		i += n
	}
	lit.offs = append(lit.offs, to)
	lit.text = string(text)
	return lit
}
