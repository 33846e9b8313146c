package eval

// unclosedBracket finds, in expr-lang source, the last opening (, [ or {
// that is never closed (outside string literals): its rune index and its
// character, or -1. The parser itself reports only "unexpected token EOF",
// which does not say which one.
func unclosedBracket(text string) (int, rune) {
	type open struct {
		at int
		ch rune
	}
	var stack []open
	var lost *open
	runes := []rune(text)
	closer := map[rune]rune{')': '(', ']': '[', '}': '{'}
	for i := 0; i < len(runes); i++ {
		switch r := runes[i]; r {
		case '\'', '"', '`':
			i = skipString(runes, i)
		case '(', '[', '{':
			stack = append(stack, open{i, r})
		case ')', ']', '}':
			j := len(stack) - 1
			for j >= 0 && stack[j].ch != closer[r] {
				j--
			}
			if j < 0 {
				continue
			}
			if j < len(stack)-1 && lost == nil {
				o := stack[len(stack)-1]
				lost = &o
			}
			stack = stack[:j]
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		return o.at, o.ch
	}
	if lost != nil {
		return lost.at, lost.ch
	}
	return -1, 0
}

// skipString returns the index of the quote that closes the string
// opening at i (or the last index when it is never closed).
func skipString(runes []rune, i int) int {
	q := runes[i]
	for j := i + 1; j < len(runes); j++ {
		switch {
		case runes[j] == '\\' && q != '`':
			j++
		case runes[j] == q:
			return j
		}
	}
	return len(runes) - 1
}

var closingOf = map[rune]string{'(': ")", '[': "]", '{': "}"}
