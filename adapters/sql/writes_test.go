package sqladapter

import "testing"

// TestQueryWrites: a statement writes when a read-only call would refuse
// it, the same test, so `mcpdecl validate` and the runtime agree.
func TestQueryWrites(t *testing.T) {
	for _, c := range []struct {
		sql    string
		writes bool
	}{
		{"SELECT * FROM orders WHERE id = ${args.id}", false},
		{"WITH o AS (SELECT * FROM orders) SELECT count(*) FROM o", false},
		{"VALUES (1)", false},
		{"INSERT INTO orders (id) VALUES (${args.id})", true},
		{"UPDATE orders SET status = 'x' WHERE id = ${args.id}", true},
		{"DELETE FROM orders WHERE id = ${args.id}", true},
		{"WITH gone AS (DELETE FROM orders RETURNING id) SELECT count(*) FROM gone", true},
		{"SELECT * INTO archive FROM orders", true},
		{"SELECT * FROM orders FOR UPDATE", true},
		{"PRAGMA table_info(orders)", true},
	} {
		q, diags := compileSQL(t, c.sql, Postgres, false)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", c.sql, diags.Error())
		}
		if q.Writes != c.writes {
			t.Errorf("%s: Writes = %v, want %v", c.sql, q.Writes, c.writes)
		}
		_, roDiags := compileSQL(t, c.sql, Postgres, true)
		if roDiags.HasErrors() != c.writes {
			t.Errorf("%s: a read-only call refuses it: %v, but Writes = %v", c.sql, roDiags.HasErrors(), q.Writes)
		}
		if got := (&Action{Query: q}).Writes(); got != c.writes {
			t.Errorf("%s: Action.Writes() = %v", c.sql, got)
		}
	}
}
