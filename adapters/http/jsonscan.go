package httpadapter

// scanJSON reports whether s is valid JSON as json.Valid judges it, and
// whether it holds white space between its tokens (loose), which
// json.Compact would remove; white space before and after the value does
// not count. It checks an answer once in a single pass of a few
// instructions a byte, where encoding/json's scanner costs several times
// that, and without the copy json.Compact makes of an answer that is
// compact already.
func scanJSON(s string) (valid, loose bool) {
	var frames [64]byte
	stack := frames[:0] // the open containers, '{' or '['
	i := skipSpace(s, 0)
	for {
		// A value starts at i.
		if i >= len(s) {
			return false, false
		}
		switch c := s[i]; c {
		case '{', '[':
			if len(stack) == maxNestingDepth {
				return false, false // encoding/json's limit
			}
			j := skipSpace(s, i+1)
			loose = loose || j > i+1
			if j < len(s) && s[j] == c+2 { // '}' and ']' are '{' and '[' plus two
				i = j + 1
				break
			}
			stack = append(stack, c)
			if i = j; c == '{' {
				var ok bool
				if i, ok = member(s, i, &loose); !ok {
					return false, false
				}
			}
			continue
		case '"':
			if i = skipString(s, i); i < 0 {
				return false, false
			}
		case 't':
			if i = skipWord(s, i, "true"); i < 0 {
				return false, false
			}
		case 'f':
			if i = skipWord(s, i, "false"); i < 0 {
				return false, false
			}
		case 'n':
			if i = skipWord(s, i, "null"); i < 0 {
				return false, false
			}
		default:
			if i = skipNumber(s, i); i < 0 {
				return false, false
			}
		}
		// After a value: the end, a comma or the close of its container.
		for next := false; !next; {
			j := skipSpace(s, i)
			if len(stack) == 0 {
				return j == len(s), loose
			}
			loose = loose || j > i
			if j == len(s) {
				return false, false
			}
			top := stack[len(stack)-1]
			switch s[j] {
			case ',':
				i = skipSpace(s, j+1)
				loose = loose || i > j+1
				if top == '{' {
					var ok bool
					if i, ok = member(s, i, &loose); !ok {
						return false, false
					}
				}
				next = true
			case top + 2:
				stack = stack[:len(stack)-1]
				i = j + 1
			default:
				return false, false
			}
		}
	}
}

// maxNestingDepth is encoding/json's bound on nested containers.
const maxNestingDepth = 10000

// member reads an object member's name and colon at i and returns where
// its value starts.
func member(s string, i int, loose *bool) (int, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, false
	}
	if i = skipString(s, i); i < 0 {
		return 0, false
	}
	j := skipSpace(s, i)
	if j == len(s) || s[j] != ':' {
		return 0, false
	}
	k := skipSpace(s, j+1)
	*loose = *loose || j > i || k > j+1
	return k, true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string literal at i, or -1. As
// for json.Valid, any byte from 0x20 up may stand in a string as it is.
func skipString(s string, i int) int {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1
		case c < ' ':
			return -1
		case c == '\\':
			if i+1 == len(s) {
				return -1
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return -1
				}
				i += 5
			default:
				return -1
			}
		}
	}
	return -1
}

func skipWord(s string, i int, word string) int {
	if len(s)-i < len(word) || s[i:i+len(word)] != word {
		return -1
	}
	return i + len(word)
}

// skipNumber returns the index after the number at i, or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func skipNumber(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i == len(s):
		return -1
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i+1)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
