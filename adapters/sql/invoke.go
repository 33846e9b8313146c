package sqladapter

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/jsonenc"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// rowVerbs start statements that yield rows; other statements run with
// ExecContext unless they say RETURNING.
var rowVerbs = []string{"SELECT", "WITH", "VALUES", "TABLE", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "PRAGMA", "CALL"}

// insertVerbs start statements whose last_insert_id means something.
var insertVerbs = []string{"INSERT", "REPLACE", "UPSERT"}

// Invoke runs the call: it binds the query's parameters from the
// arguments, runs the statement under the tool's timeout, else the
// backend's statement_timeout, and
// returns the rows (or, for a write, rows_affected and last_insert_id).
//
// Result.Fields holds rows ([]map[string]any), columns ([]string, in the
// order of the result set), rows_affected (int), last_insert_id (int) and
// truncated (bool). Result.Structured is {"rows": rows} (with "truncated":
// true when rows were cut) for a statement that yields rows, else
// {"rows_affected": n} (with "last_insert_id" for an insert). Result.Text
// is the same as JSON, the columns of each row in order.
//
// Database failures are returned as *adapter.CallError, written for the
// model and without the DSN.
func (a *Action) Invoke(ctx context.Context, req *adapter.Request) (*adapter.Result, error) {
	if a.Backend == nil || a.Query == nil {
		return nil, fmt.Errorf("%s: the sql call did not compile", a.Owner)
	}
	p := a.Backend.state.Load()
	if p == nil {
		return nil, fmt.Errorf("backend \"sql\" %q is not open", a.Backend.Name)
	}
	// The caller's deadline is the tool's time limit; a message names it.
	limit := req.CallLimit(ctx)
	args, err := a.bind(req)
	if err != nil {
		return nil, err
	}
	var id *callerIdentity
	if a.Backend.Identity != nil {
		if id, err = a.Backend.Identity.evaluate(req); err != nil {
			return nil, err
		}
	}
	cctx := ctx
	// A tool's timeout is the one deadline of its calls (ctx has it);
	// the backend's statement_timeout bounds only calls of tools without,
	// and only when ctx would not end first anyway (context.WithTimeout
	// would then make a context that ends with ctx, at some cost).
	if t := a.Backend.StatementTimeout; t > 0 && req.Timeout <= 0 && !endsWithin(ctx, t) {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	out, err := a.run(cctx, p, args, req.AnswerOnly, id)
	if err != nil && cctx.Err() == nil && isLostConnection(err) {
		// When the database ended one session it has likely ended every
		// idle one too (a restart, a failover, pg_terminate_backend of all
		// of them), and they look alive until used: drop them, so that the
		// retry and the calls after it get new connections.
		p.dropIdle()
		if a.ReadOnly || notRun(err) {
			// A read-only statement is always safe to repeat, a write only
			// when it surely did not take effect.
			out, err = a.run(cctx, p, args, req.AnswerOnly, id)
		}
	}
	if err != nil {
		return nil, a.callError(ctx, cctx, err, args, limit)
	}
	if req.AnswerOnly {
		return out.answer(), nil
	}
	return out.result(), nil
}

// endsWithin reports whether ctx has a deadline sooner than d from now.
func endsWithin(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return ok && time.Until(deadline) < d
}

// bind evaluates the bound-parameter expressions with the call's arguments
// and converts the values for the driver.
func (a *Action) bind(req *adapter.Request) ([]any, error) {
	params := a.Query.Params
	if len(params) == 0 {
		return nil, nil
	}
	args := make([]any, len(params))
	var (
		ectx     *hcl.EvalContext
		ectxFile string
	)
	for i, p := range params {
		var v cty.Value
		name := ""
		if i < len(a.Query.argNames) {
			name = a.Query.argNames[i]
		}
		if name != "" && req.Args.Type().IsObjectType() && req.Args.Type().HasAttribute(name) && req.Args.IsKnown() && !req.Args.IsNull() {
			v = req.Args.GetAttr(name)
		} else {
			if file := p.Range().Filename; ectx == nil || file != ectxFile {
				ectx, ectxFile = req.Context(p), file
			}
			var diags hcl.Diagnostics
			v, diags = eval.Value(p, ectx)
			if diags.HasErrors() {
				return nil, fmt.Errorf("%s: SQL parameter %d: %s", a.Owner, i+1, diags.Error())
			}
		}
		arg, err := goValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: SQL parameter %d at %s: %w", a.Owner, i+1, p.Range(), err)
		}
		if f, ok := arg.(float64); ok && a.Backend.Driver == Postgres {
			// pgx would cut 2.5 to 2 for an integer parameter without a
			// word; as text, the server converts it to the parameter's
			// type itself, and refuses it for an integer.
			arg = strconv.FormatFloat(f, 'g', -1, 64)
		}
		args[i] = arg
	}
	return args, nil
}

// argsAttr reports whether e is exactly args.<name>.
func argsAttr(e hcl.Expression) (string, bool) {
	t, diags := hcl.AbsTraversalForExpr(e)
	if diags.HasErrors() || len(t) != 2 || t.RootName() != "args" {
		return "", false
	}
	if a, ok := t[1].(hcl.TraverseAttr); ok {
		return a.Name, true
	}
	return "", false
}

// goValue converts a primitive cty value into a driver argument: a string,
// a bool, an int64 for whole numbers, a float64 when it holds the number
// exactly as written, or else the number's decimal text (which every
// database converts exactly to a numeric type).
func goValue(v cty.Value) (any, error) {
	v, _ = v.Unmark()
	if v.IsNull() {
		return nil, nil
	}
	if !v.IsKnown() {
		return nil, errors.New("the value is not known")
	}
	switch v.Type() {
	case cty.String:
		return v.AsString(), nil
	case cty.Bool:
		return v.True(), nil
	case cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			if i, acc := bf.Int64(); acc == big.Exact {
				return i, nil
			}
			return bf.Text('f', 0), nil
		}
		// Bound as a float64 when that holds the number as written (the
		// rule every layer applies), else as its text.
		text := eval.FloatText(bf)
		if f, exact := rule.ExactFloat(text); exact {
			return f, nil
		}
		return text, nil
	}
	return nil, fmt.Errorf("a bound parameter takes a string, number or bool, not %s", v.Type().FriendlyName())
}

// outcome is what a statement produced.
type outcome struct {
	rows      []map[string]any
	columns   []string
	count     int // rows read (len(rows), or those written as JSON)
	truncated bool
	// lines and compact hold the rows as JSON when they were read for an
	// answer nothing reads the values of (readRows with asJSON): the
	// members of the text's array and of the structured content's.
	lines, compact []byte
	exec           bool // ran with ExecContext
	affected       int64
	lastID         int64
	hasLastID      bool
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// stmtQueryer runs a prepared statement as a queryer; the text is ignored.
type stmtQueryer struct{ stmt *sql.Stmt }

func (s stmtQueryer) QueryContext(ctx context.Context, _ string, args ...any) (*sql.Rows, error) {
	return s.stmt.QueryContext(ctx, args...)
}

// yieldsRows reports whether the statement is run as a query.
func (q *Query) yieldsRows() bool {
	return q.Returning || slices.Contains(rowVerbs, q.Verb)
}

// run runs the statement once; as the caller when id is set (the
// backend's identity block).
func (a *Action) run(ctx context.Context, p *pools, args []any, asJSON bool, id *callerIdentity) (*outcome, error) {
	if id != nil {
		return a.runAs(ctx, p, args, asJSON, id)
	}
	if a.ReadOnly {
		return a.runReadOnly(ctx, p, args, asJSON)
	}
	db := p.rw
	if db == nil {
		return nil, errors.New("read-write call on a read-only backend")
	}
	return a.runOn(ctx, p, db, args, asJSON)
}

// runOn runs a statement that may write on db: a pool, a connection or a
// transaction.
func (a *Action) runOn(ctx context.Context, p *pools, db execQueryer, args []any, asJSON bool) (*outcome, error) {
	if a.Query.yieldsRows() {
		return a.query(ctx, p, db, args, asJSON)
	}
	res, err := db.ExecContext(ctx, a.Query.Text, args...)
	if err != nil {
		return nil, err
	}
	out := &outcome{exec: true, rows: []map[string]any{}, columns: []string{}}
	if n, err := res.RowsAffected(); err == nil {
		out.affected = n
	}
	if slices.Contains(insertVerbs, a.Query.Verb) {
		if id, err := res.LastInsertId(); err == nil {
			out.lastID, out.hasLastID = id, true
		}
	}
	return out, nil
}

// runReadOnly runs the statement where the database refuses writes.
func (a *Action) runReadOnly(ctx context.Context, p *pools, args []any, asJSON bool) (*outcome, error) {
	if a.Backend.Driver == SQLite {
		if !p.toggle {
			return a.query(ctx, p, p.ro, args, asJSON)
		}
		conn, err := p.ro.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
			return nil, err
		}
		defer func() {
			if _, err := conn.ExecContext(context.Background(), "PRAGMA query_only = 0"); err != nil {
				conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
		return a.query(ctx, p, conn, args, asJSON)
	}
	tx, err := p.ro.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return a.query(ctx, p, tx, args, asJSON)
}

// query runs the statement and reads at most MaxRows rows. On an SQLite
// pool it uses a prepared statement kept for the action (the driver does
// not cache them; Postgres's does).
func (a *Action) query(ctx context.Context, p *pools, db queryer, args []any, asJSON bool) (*outcome, error) {
	if pool, ok := db.(*sql.DB); ok && a.Backend.Driver == SQLite {
		stmt, err := p.stmt(ctx, pool, a.Query)
		if err != nil {
			return nil, err
		}
		db = stmtQueryer{stmt}
	}
	rows, err := db.QueryContext(ctx, a.Query.Text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, err := readRows(rows, a.MaxRows, a.Backend.Driver, &a.columns, asJSON)
	if err != nil {
		return nil, err
	}
	if a.Query.Returning && !a.ReadOnly {
		out.affected = int64(out.count)
	}
	return out, nil
}

// readRows reads up to max rows (all when max <= 0). cols keeps the
// column info of the statement's last result set, reused while the
// columns stay the same.
func readRows(rows *sql.Rows, max int, d Dialect, cols *atomic.Pointer[columnInfo], asJSON bool) (*outcome, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	info, fresh := columnsOf(types, d, cols.Load())
	if fresh {
		cols.Store(info)
	}
	out := &outcome{rows: []map[string]any{}, columns: info.columns}
	kinds := info.kinds
	// One allocation for the scanned values and the pointers to them.
	scratch := make([]any, 2*len(types))
	vals, ptrs := scratch[:len(types)], scratch[len(types):]
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if max > 0 && out.count == max {
			out.truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out.count++
		if asJSON {
			// Nothing reads the rows as values: each is written as JSON
			// as it is scanned, for the text and the structured content.
			out.addJSON(vals, kinds, d)
			continue
		}
		row := make(map[string]any, len(vals))
		for i, v := range vals {
			row[out.columns[i]] = convert(v, kinds[i], d)
			vals[i] = nil
		}
		out.rows = append(out.rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// addJSON appends one scanned row to the outcome's JSON forms: the text's
// line ({"a": 1, "b": "x"}) and the structured content's member
// ({"a":1,"b":"x"}), values as rowsJSON writes them.
func (o *outcome) addJSON(vals []any, kinds []colKind, d Dialect) {
	if o.compact == nil {
		o.lines, o.compact = make([]byte, 0, 48*len(vals)), make([]byte, 0, 40*len(vals))
	}
	if o.count > 1 {
		o.lines = append(o.lines, ',')
		o.compact = append(o.compact, ',')
	}
	o.lines = append(o.lines, '\n', '{')
	o.compact = append(o.compact, '{')
	for i, v := range vals {
		if i > 0 {
			o.lines = append(o.lines, ", "...)
			o.compact = append(o.compact, ',')
		}
		start := len(o.compact)
		o.compact = appendJSONString(o.compact, o.columns[i])
		o.compact = append(o.compact, ':')
		o.lines = append(o.lines, o.compact[start:len(o.compact)-1]...)
		o.lines = append(o.lines, ": "...)
		start = len(o.compact)
		o.compact = appendJSON(o.compact, convert(v, kinds[i], d))
		o.lines = append(o.lines, o.compact[start:]...)
		vals[i] = nil
	}
	o.lines = append(o.lines, '}')
	o.compact = append(o.compact, '}')
}

// truncatedNote ends the text of a truncated result.
const truncatedNote = "Showing the first %s; more were cut. Narrow the query."

// result builds the adapter's result.
func (o *outcome) result() *adapter.Result {
	fields := map[string]any{
		"rows":           o.rows,
		"columns":        o.columns,
		"rows_affected":  int(o.affected),
		"last_insert_id": int(o.lastID),
		"truncated":      o.truncated,
	}
	if o.exec {
		st := map[string]any{"rows_affected": int(o.affected)}
		text := `{"rows_affected": ` + strconv.FormatInt(o.affected, 10)
		if o.hasLastID {
			st["last_insert_id"] = int(o.lastID)
			text += `, "last_insert_id": ` + strconv.FormatInt(o.lastID, 10)
		}
		return &adapter.Result{Fields: fields, Structured: st, Text: text + "}"}
	}
	st := map[string]any{"rows": o.rows}
	if o.truncated {
		st["truncated"] = true
	}
	return &adapter.Result{Fields: fields, Structured: st, Text: o.text()}
}

// text is the rows as rowsJSON writes them, and a note when they were cut.
func (o *outcome) text() string {
	text := rowsJSON(o.columns, o.rows)
	if o.truncated {
		text += "\n" + fmt.Sprintf(truncatedNote, english.Count(len(o.rows), "row"))
	}
	return text
}

// answer is the result when nothing reads its fields: the text, and the
// structured content written at once as compact JSON, {"rows": [...]},
// members in column order (their names are unique: see columnNames),
// never built as maps and encoded again. Statements keep the general
// result.
func (o *outcome) answer() *adapter.Result {
	if o.exec {
		return o.result()
	}
	if o.count > 0 && o.compact == nil {
		return o.result() // read as values after all
	}
	b := make([]byte, 0, len(o.compact)+32)
	b = append(b, `{"rows":[`...)
	b = append(b, o.compact...)
	b = append(b, ']')
	if o.truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, '}')
	text := "[]"
	if o.count > 0 {
		t := append(append(append(make([]byte, 0, len(o.lines)+4), '['), o.lines...), '\n', ']')
		text = unsafe.String(unsafe.SliceData(t), len(t)) // t is not used again
	}
	if o.truncated {
		text += "\n" + fmt.Sprintf(truncatedNote, english.Count(o.count, "row"))
	}
	return &adapter.Result{Text: text, StructuredJSON: b}
}

// rowsJSON renders rows as a JSON array with one object per line, its
// members in column order.
func rowsJSON(columns []string, rows []map[string]any) string {
	b := appendRows(make([]byte, 0, 64*len(rows)*max(1, len(columns))), columns, rows)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not used again
}

// appendRows appends rows as rowsJSON writes them.
func appendRows(b []byte, columns []string, rows []map[string]any) []byte {
	if len(rows) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, row := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n', '{')
		for j, c := range columns {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = appendJSONString(b, c)
			b = append(b, ": "...)
			b = appendJSON(b, row[c])
		}
		b = append(b, '}')
	}
	return append(b, '\n', ']')
}

// appendJSON appends one column value. Strings are written by
// appendJSONString, so the text keeps <, > and & readable; everything else,
// numbers included, is written as encoding/json writes it, so a number in
// the text reads the same as in the structured content (99999999.99, not
// 9.999999999e+07).
func appendJSON(b []byte, v any) []byte {
	if s, ok := v.(string); ok {
		return appendJSONString(b, s)
	}
	out, err := jsonenc.Append(b, v)
	if err != nil {
		return appendJSONString(b, fmt.Sprint(v)) // b still ends before the failed value
	}
	return out
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, without escaping <, > and
// &, and with invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20 || r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
