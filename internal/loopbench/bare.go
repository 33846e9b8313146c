package main

import (
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// The bare peers are what a hand-written server does for each job with no
// MCP checks at all: decode the JSON-RPC body, do the job, write the
// 2026-07-28 tools/call result. Headers, protocol version, method and
// arguments go unchecked; that is the cost mcpdecl is measured over.

// callRequest is the part of a tools/call the peers read.
type callRequest struct {
	ID     json.RawMessage `json:"id"`
	Params struct {
		Arguments struct {
			Text string `json:"text"`
			ID   int64  `json:"id"`
		} `json:"arguments"`
	} `json:"params"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	Content    []textBlock `json:"content"`
	IsError    bool        `json:"isError"`
	ResultType string      `json:"resultType"`
}

// job answers one decoded call with the text of its result.
type job func(r *http.Request, req *callRequest) (string, error)

func runBare(args []string) error {
	fs := flag.NewFlagSet("bare", flag.ContinueOnError)
	name := fs.String("job", "echo", "echo, rest or sql")
	addr := fs.String("addr", "127.0.0.1:0", "where to listen")
	backend := fs.String("backend", "", "the REST backend's URL (rest)")
	db := fs.String("db", "", "the SQLite database (sql)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	h, closeJob, err := bareHandler(*name, *backend, *db)
	if err != nil {
		return err
	}
	defer closeJob()
	return http.ListenAndServe(*addr, h)
}

// bareHandler is the peer for the job called name, on /mcp.
func bareHandler(name, backend, db string) (http.Handler, func(), error) {
	var do job
	closeJob := func() {}
	switch name {
	case "echo":
		do = func(_ *http.Request, req *callRequest) (string, error) {
			return "echo: " + req.Params.Arguments.Text, nil
		}
	case "rest":
		do = restJob(backend)
	case "sql":
		stmt, err := openItemQuery(db)
		if err != nil {
			return nil, nil, err
		}
		closeJob = func() { stmt.Close() }
		do = sqlJob(stmt)
	default:
		return nil, nil, fmt.Errorf("unknown job %q: use echo, rest or sql", name)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /mcp", serveCall(do))
	return mux, closeJob, nil
}

func serveCall(do job) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req callRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		text, err := do(r, &req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  callResult      `json:"result"`
		}{"2.0", req.ID, callResult{[]textBlock{{"text", text}}, false, "complete"}})
	}
}

// restJob GETs the item from the backend on one keep-alive client and
// answers its body.
func restJob(backend string) job {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	return func(r *http.Request, req *callRequest) (string, error) {
		get, err := http.NewRequestWithContext(r.Context(), http.MethodGet,
			backend+"/items/"+strconv.FormatInt(req.Params.Arguments.ID, 10), nil)
		if err != nil {
			return "", err
		}
		resp, err := client.Do(get)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("backend: %s", resp.Status)
		}
		return string(body), err
	}
}

// openItemQuery prepares the point read on the database, read-only.
func openItemQuery(path string) (*sql.Stmt, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, err
	}
	return db.Prepare("SELECT id, name, price FROM items WHERE id = ?")
}

// sqlJob reads the row and answers it as JSON.
func sqlJob(stmt *sql.Stmt) job {
	return func(r *http.Request, req *callRequest) (string, error) {
		var it item
		err := stmt.QueryRowContext(r.Context(), req.Params.Arguments.ID).Scan(&it.ID, &it.Name, &it.Price)
		if err != nil {
			return "", err
		}
		text, err := json.Marshal(it)
		return string(text), err
	}
}
