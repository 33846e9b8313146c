package sqladapter

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// TestCancelledByDatabase has another session cancel a running write
// (pg_cancel_backend, KILL QUERY): the model is told the database stopped
// it, not that it was too slow, and the adapter does not run it again.
func TestCancelledByDatabase(t *testing.T) {
	queries := map[string]string{
		"postgres": "INSERT INTO {t} (n) SELECT 1 FROM pg_sleep(3) WHERE ${args.n} = 1",
		// Too long ever to finish: run again, it would time out.
		"mariadb": "INSERT INTO {t} (n) SELECT count(*) FROM information_schema.collations a, information_schema.collations b, information_schema.collations c, information_schema.collations d WHERE ${args.n} = 1",
	}
	for _, name := range []string{"postgres", "mariadb"} {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			table := uniqueTable()
			if _, err := db.admin.Exec("CREATE TABLE " + table + " (n INTEGER)"); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.admin.Exec("DROP TABLE IF EXISTS " + table) })
			b, a := compileTestCall(t, db, `statement_timeout = "6s"`, strings.ReplaceAll(queries[name], "{t}", table), "", true)
			open(t, b)
			cancelled := make(chan error, 1)
			go func() { cancelled <- cancelRunning(db, table) }()
			start := time.Now()
			_, err := invoke(a, map[string]cty.Value{"n": cty.NumberIntVal(1)})
			elapsed := time.Since(start)
			if err := <-cancelled; err != nil {
				t.Fatal(err)
			}
			var ce *adapter.CallError
			if !errors.As(err, &ce) || ce.Message != msgKilled || !ce.Retryable {
				t.Errorf("err = %v (%T), want a retryable CallError %q", err, err, msgKilled)
			}
			if elapsed > 2500*time.Millisecond {
				t.Errorf("the call took %v: was it run again?", elapsed)
			}
			var n int
			if err := db.admin.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("%d rows were inserted: the cancelled statement was run again", n)
			}
		})
	}
}

// cancelRunning waits for the statement on table to run, then has the
// admin session cancel it as an administrator would.
func cancelRunning(db *testDB, table string) error {
	find := "SELECT pid FROM pg_stat_activity WHERE query LIKE '%INSERT INTO " + table + " %' AND pid <> pg_backend_pid()"
	cancel := "SELECT pg_cancel_backend(%d)"
	if db.name == "mariadb" {
		find = "SELECT id FROM information_schema.processlist WHERE info LIKE '%INSERT INTO " + table + " %' AND id <> CONNECTION_ID()"
		cancel = "KILL QUERY %d"
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var id int64
		if err := db.admin.QueryRow(find).Scan(&id); err != nil {
			continue // not running yet
		}
		time.Sleep(200 * time.Millisecond) // well inside the statement
		_, err := db.admin.Exec(fmt.Sprintf(cancel, id))
		return err
	}
	return errors.New("the statement never showed among the running ones")
}
