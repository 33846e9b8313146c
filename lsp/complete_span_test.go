package lsp

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// reports has a heredoc whose lines start at column 0, as top-level
// names do.
const reports = `backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:reports.db"
}

tool "report" {
  description = "The totals of the month, by shop."
  step "totals" {
    sql "db" {
      query = <<SQL
SELECT shop, SUM(total) AS total
FROM orders
GROUP BY shop
SQL
    }
  }
  result {
    text = "string(len(steps.totals.rows))"
  }
}

locals {
  greeting = "hello"
}
`

// TestTopItemGivesTheBlocksOfTheWholeFile: at the end of every line, the
// blocks found by parsing the top-level item alone are those of the
// whole file, heredoc lines at column 0 included.
func TestTopItemGivesTheBlocksOfTheWholeFile(t *testing.T) {
	for _, src := range []string{books, plants, reports} {
		doc := &document{path: "t.hcl", text: newText(src)}
		fast := 0 // lines answered from their item
		for line, lineStart := range doc.text.lines {
			end := len(src)
			if line+1 < len(doc.text.lines) {
				end = doc.text.lines[line+1] - 1
			}
			want := blockPath(blocksInWholeFile(doc, end, lineStart))
			if got, ok := blocksInTopItem(doc, end, lineStart); ok {
				fast++
				if !slices.Equal(blockPath(got), want) {
					t.Errorf("line %d %q: top item gives %v, the whole file %v", line+1, src[lineStart:end], blockPath(got), want)
				}
			}
		}
		// A heredoc with lines at column 0 leaves its tool to the whole
		// file; elsewhere most lines are answered from their item.
		if src != reports && fast < len(doc.text.lines)*3/4 {
			t.Errorf("only %d of %d lines were answered from their top-level item", fast, len(doc.text.lines))
		}
	}
}

func blockPath(blocks []*hclsyntax.Block) []string {
	var out []string
	for _, b := range blocks {
		out = append(out, strings.Join(append([]string{b.Type}, b.Labels...), " "))
	}
	return out
}
