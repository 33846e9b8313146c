// Package udiff writes unified diffs of two texts (mcpdecl fmt --diff).
// It is a leaf: it imports the standard library only.
package udiff

import (
	"fmt"
	"strings"
)

// Unified returns a unified diff of two texts with three lines of
// context.
func Unified(name, a, b string) string {
	return Labeled(name, name+" (formatted)", a, b)
}

// Labeled is Unified with the labels of the old and the new text given
// ("" when the texts are equal).
func Labeled(oldLabel, newLabel, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffOps(x, y)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldLabel, newLabel)
	for _, h := range hunks(ops, 3) {
		writeHunk(&sb, h)
	}
	return sb.String()
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// op is one line of the edit script: ' ' kept, '-' removed, '+' added,
// with its line numbers (1-based) in the old and new text.
type op struct {
	kind       byte
	text       string
	aLine, bLn int
}

// diffOps is the edit script from x to y: the common first and last lines
// are kept as they are, and the lines between are compared by longest
// common subsequence when that table is small, else replaced whole (a
// correct diff, if not the shortest, for huge generated files).
func diffOps(x, y []string) []op {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', x[i], i + 1, i + 1})
	}
	ops = append(ops, middleOps(x[pre:len(x)-suf], y[pre:len(y)-suf], pre)...)
	for k := suf; k > 0; k-- {
		i, j := len(x)-k, len(y)-k
		ops = append(ops, op{' ', x[i], i + 1, j + 1})
	}
	return ops
}

// maxDiffCells bounds the longest-common-subsequence table (ints).
const maxDiffCells = 4 << 20

// middleOps diffs the differing middle; off is the number of lines
// before it in both texts. On a tie a removal comes before an addition,
// as readers of diffs expect.
func middleOps(x, y []string, off int) []op {
	n, m := len(x), len(y)
	var ops []op
	if (n+1)*(m+1) > maxDiffCells {
		for i := range x {
			ops = append(ops, op{'-', x[i], off + i + 1, off})
		}
		for j := range y {
			ops = append(ops, op{'+', y[j], off + n, off + j + 1})
		}
		return ops
	}
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], off + i + 1, off + j + 1})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i], off + i + 1, off + j})
			i++
		default:
			ops = append(ops, op{'+', y[j], off + i, off + j + 1})
			j++
		}
	}
	return ops
}

// hunks groups changed lines with up to ctx lines of context around them.
func hunks(ops []op, ctx int) [][]op {
	var out [][]op
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-ctx)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		out = append(out, ops[start:end])
		i = end
	}
	return out
}

func writeHunk(sb *strings.Builder, h []op) {
	aStart, bStart, aCount, bCount := 0, 0, 0, 0
	for _, o := range h {
		if o.kind != '+' {
			if aStart == 0 {
				aStart = o.aLine
			}
			aCount++
		}
		if o.kind != '-' {
			if bStart == 0 {
				bStart = o.bLn
			}
			bCount++
		}
	}
	fmt.Fprintf(sb, "@@ -%d,%d +%d,%d @@\n", aStart, aCount, bStart, bCount)
	for _, o := range h {
		text := o.text
		if !strings.HasSuffix(text, "\n") {
			text += "\n\\ No newline at end of file\n"
		}
		sb.WriteByte(o.kind)
		sb.WriteString(text)
	}
}
