package server_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// TestTaskCancelStopsQuery: cancelling a task whose SQL statement runs on
// PostgreSQL ends the statement on the server, not only the wait for it.
func TestTaskCancelStopsQuery(t *testing.T) {
	dsn := testenv.Postgres.Need(t)
	marker := fmt.Sprintf("task_cancel_%d", rand.Int64())
	a := newReplicaOf(t, `
backend "sql" "pg" {
  driver = "postgres"
  dsn    = "`+dsn+`"
}
tool "slow_query" {
  description = "A query that takes as long as it is told."
  arg "seconds" {
    type = number
  }
  sql "pg" {
    query = "SELECT 1 AS `+marker+` FROM pg_sleep(CAST(${args.seconds} AS double precision))"
  }
  task {}
}
`, tasks.NewMemory(), nil)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	running := func() int {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`, marker).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitRunning := func(want int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for running() != want {
			if time.Now().After(deadline) {
				t.Fatalf("%d statements running, want %d", running(), want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	id := a.rpc(t, "tools/call", `"name":"slow_query","arguments":{"seconds":600}`)["taskId"].(string)
	waitRunning(1)
	a.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`)
	waitRunning(0)
	if got := a.rpc(t, "tasks/get", `"taskId":"`+id+`"`); got["status"] != "cancelled" {
		t.Fatalf("after cancel: %v", got)
	}
}
