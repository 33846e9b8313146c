package sqladapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestColumnsFollowSchemaChanges runs one read action before and after
// its table changes under it: a column that keeps its name but changes
// type is converted for its new type, and an added column appears. The
// column info kept from the earlier calls must not be used for them.
func TestColumnsFollowSchemaChanges(t *testing.T) {
	before := bySQL[string]{"sqlite": "BOOLEAN", "": "DECIMAL(10,2)"}
	after := bySQL[string]{"sqlite": "INTEGER", "": "DOUBLE PRECISION"}
	wantBefore := bySQL[any]{"sqlite": true, "": json.Number("1.00")}
	wantAfter := bySQL[any]{"sqlite": int64(1), "": float64(1)}
	for _, name := range testDBs {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			table := uniqueTable()
			sub := func(s string) string { return strings.ReplaceAll(s, "{t}", table) }
			exec := func(s string) {
				t.Helper()
				if _, err := db.admin.Exec(sub(s)); err != nil {
					t.Fatalf("%s: %v", sub(s), err)
				}
			}
			t.Cleanup(func() { db.admin.Exec(sub("DROP TABLE IF EXISTS {t}")) })
			exec("CREATE TABLE {t} (id INTEGER, v " + before.For(name) + ")")
			exec("INSERT INTO {t} VALUES (1, 1)")
			b, a := compileTestCall(t, db, "", sub("SELECT * FROM {t}"), "", false)
			open(t, b)
			check := func(want map[string]any, columns []string) {
				t.Helper()
				if name == "postgres" {
					// Postgres refuses a statement prepared before the change
					// once ("cached plan must not change result type"); pgx
					// then prepares it again.
					if _, err := invoke(a, nil); err != nil && !strings.Contains(err.Error(), "0A000") {
						t.Fatal(err)
					}
				}
				for range 2 { // the second call reuses what the first learnt
					res, err := invoke(a, nil)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff([]map[string]any{want}, res.Fields["rows"]); diff != "" {
						t.Errorf("rows (-want +got):\n%s", diff)
					}
					if diff := cmp.Diff(columns, res.Fields["columns"]); diff != "" {
						t.Errorf("columns (-want +got):\n%s", diff)
					}
				}
			}
			check(map[string]any{"id": int64(1), "v": wantBefore.For(name)}, []string{"id", "v"})

			exec("DROP TABLE {t}")
			exec("CREATE TABLE {t} (id INTEGER, v " + after.For(name) + ")")
			exec("INSERT INTO {t} VALUES (1, 1)")
			check(map[string]any{"id": int64(1), "v": wantAfter.For(name)}, []string{"id", "v"})

			exec("ALTER TABLE {t} ADD COLUMN w INTEGER")
			check(map[string]any{"id": int64(1), "v": wantAfter.For(name), "w": nil}, []string{"id", "v", "w"})
		})
	}
}
