package sqladapter

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// TestAnswerOnlyMatchesResult: when nothing reads a result's fields, the
// answer is written as JSON at once; its text is the general result's,
// and its structured content decodes to the same value, on every
// database, for rows of every type, a cut list and repeated column names.
func TestAnswerOnlyMatchesResult(t *testing.T) {
	for _, name := range testDBs {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			for _, stmt := range []string{
				"DROP TABLE IF EXISTS answer_only",
				"CREATE TABLE answer_only (id INTEGER PRIMARY KEY, name VARCHAR(40), price DECIMAL(16,2), note VARCHAR(40))",
				"INSERT INTO answer_only VALUES (1, 'Fern \"<tall>\"', 304.80, NULL), (2, 'Rosé', 12345678901.99, 'x'), (3, 'Cactus', 0.10, '')",
			} {
				if _, err := db.admin.Exec(stmt); err != nil {
					t.Fatal(err)
				}
			}
			for _, tc := range []struct {
				query, attrs string
				asJSON       bool // the answer comes as JSON text
			}{
				{"SELECT id, name, price, note FROM answer_only ORDER BY id", "", true},
				{"SELECT id, name FROM answer_only ORDER BY id", "max_rows = 2", true},
				{"SELECT id, name, id FROM answer_only ORDER BY id", "", true}, // the second id is named apart
				{"SELECT id FROM answer_only WHERE id > 100", "", true},
			} {
				b, a := compileTestCall(t, db, "", tc.query, tc.attrs, false)
				open(t, b)
				general, err := invokeAnswerOnly(a, false)
				if err != nil {
					t.Fatal(err)
				}
				fast, err := invokeAnswerOnly(a, true)
				if err != nil {
					t.Fatal(err)
				}
				if (fast.StructuredJSON != nil) != tc.asJSON {
					t.Errorf("%s: structured content as JSON text: %v, want %v", tc.query, fast.StructuredJSON != nil, tc.asJSON)
				}
				if fast.Text != general.Text {
					t.Errorf("%s: text\n%s\nwant\n%s", tc.query, fast.Text, general.Text)
				}
				if got, want := structured(t, fast), structured(t, general); !cmp.Equal(got, want) {
					t.Errorf("%s: structured content (-want +got):\n%s", tc.query, cmp.Diff(want, got))
				}
			}
		})
	}
}

func invokeAnswerOnly(a *Action, answerOnly bool) (*adapter.Result, error) {
	return a.Invoke(context.Background(), &adapter.Request{
		Args: argsVal(nil), Static: &eval.Static{}, AnswerOnly: answerOnly,
		Progress: func(float64, float64, string) {}, Log: func(string, any) {},
	})
}

// structured is a result's structured content as decoded JSON.
func structured(t *testing.T, r *adapter.Result) any {
	t.Helper()
	b := []byte(r.StructuredJSON)
	if b == nil {
		var err error
		if b, err = json.Marshal(r.Structured); err != nil {
			t.Fatal(err)
		}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structured content is not JSON: %v\n%s", err, b)
	}
	return v
}
