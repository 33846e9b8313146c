package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	_ "modernc.org/sqlite" // the driver mcpdecl's sql backend uses too
)

// itemCount is how many items the backend serves and the database holds;
// the load generator asks for ids 1..itemCount in turn.
const itemCount = 1000

// item is one row, the same in the REST backend and in SQLite, so the
// answers of both jobs can be checked the same way.
type item struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

func itemName(id int64) string { return fmt.Sprintf("item-%d-name", id) }

func makeItem(id int64) item { return item{id, itemName(id), float64(id) + 0.5} }

// runSeed writes the items table into a new SQLite database.
func runSeed(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: loopbench seed DB")
	}
	db, err := sql.Open("sqlite", "file:"+args[0])
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL)"); err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for id := int64(1); id <= itemCount; id++ {
		it := makeItem(id)
		if _, err := tx.Exec("INSERT INTO items VALUES (?, ?, ?)", it.ID, it.Name, it.Price); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// runBackend serves the items over REST, the backend of the rest job.
func runBackend(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: loopbench backend ADDR")
	}
	return http.ListenAndServe(args[0], backendHandler())
}

func backendHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || id < 1 || id > itemCount {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(makeItem(id))
	})
	return mux
}
