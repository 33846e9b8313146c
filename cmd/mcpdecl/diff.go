package main

import (
	"fmt"
	"strings"
)

// unifiedDiff returns a unified diff of two texts with three lines of
// context. Configuration files are small, so a quadratic longest common
// subsequence is fast enough and keeps this simple.
func unifiedDiff(name, a, b string) string {
	x, y := splitLines(a), splitLines(b)
	ops := diffOps(x, y)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s (formatted)\n", name, name)
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

func diffOps(x, y []string) []op {
	n, m := len(x), len(y)
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
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i + 1, j + 1})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', y[j], i, j + 1})
			j++
		default:
			ops = append(ops, op{'-', x[i], i + 1, j})
			i++
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
