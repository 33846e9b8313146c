package sqladapter

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// Messages of the failures the model may act on.
const (
	msgTimeout = "The query took longer than %s and was stopped; narrow it (filter on more columns, or ask for fewer rows)."
	msgLost    = "The database connection was lost; retrying may help."
	// msgLostWrite is for a write whose connection broke while the
	// statement may have run: calling again could write twice.
	msgLostWrite = "The database connection was lost while the statement ran, so it may or may not have taken effect; check before calling again."
	msgReadOnly  = "The database refused to write: this tool is read-only."
	msgBusy      = "The database is busy (another writer holds a lock); retrying may help."
	msgCancelled = "The call was cancelled before the query finished."
	msgLimit     = "The query did not finish within %s, the time limit of this call, and was stopped; narrow it (filter on more columns, or ask for fewer rows)."
	// msgKilled is for a query the database stopped at someone else's
	// request (KILL QUERY, pg_cancel_backend): the query was not at fault,
	// so the model must not be told to narrow it. It is never re-run here:
	// a write may have had effects the cancellation did not undo.
	msgKilled = "The database cancelled the query (an administrator or another session stopped it); it may succeed if called again."
)

// callError turns a database error into a *adapter.CallError written for
// the model. ctx is the caller's context and cctx the call's, with the
// statement timeout; args are the bound values and limit the time the
// caller's deadline left when the call began (0 for none).
func (a *Action) callError(ctx, cctx context.Context, err error, args []any, limit time.Duration) error {
	ce := func(msg string, retry bool) error {
		if msg == msgLost && !a.ReadOnly && !notRun(err) {
			msg, retry = msgLostWrite, false
		}
		// The message may quote the server's own text, scrubbed in case it
		// repeats the password.
		return &adapter.CallError{Message: a.Backend.scrub(withoutAddresses(msg)), Retryable: retry, Err: &redactedError{msg: a.Backend.scrub(err.Error()), err: err}}
	}
	timeout := a.Backend.StatementTimeout.String()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && limit > 0:
		return ce(fmt.Sprintf(msgLimit, adapter.RoundLimit(limit)), false)
	case ctx.Err() != nil:
		return ce(msgCancelled, false)
	case cctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return ce(fmt.Sprintf(msgTimeout, timeout), false)
	}
	var (
		pgErr *pgconn.PgError
		myErr *mysql.MySQLError
		slErr *sqlite.Error
	)
	switch {
	case errors.As(err, &pgErr):
		msg, retry := postgresMessage(pgErr, timeout)
		return ce(msg, retry)
	case errors.As(err, &myErr):
		msg, retry := mysqlMessage(myErr, timeout)
		return ce(msg, retry)
	case errors.As(err, &slErr):
		msg, retry := a.sqliteMessage(slErr, timeout, args)
		return ce(msg, retry)
	case isLostConnection(err):
		return ce(msgLost, true)
	}
	if msg, ok := a.encodeFailure(err, args); ok {
		return ce(msg, false)
	}
	// Anything else (a driver bug, say) is internal.
	return &redactedError{msg: fmt.Sprintf("%s: %s", a.Owner, a.Backend.scrub(err.Error())), err: err}
}

// notRun reports whether err says the statement surely did not take
// effect: the driver knew the connection was bad before sending it, or
// Postgres had terminated the session (pg_terminate_backend, shutdown),
// which rolls back the statement's transaction.
func notRun(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || pgconn.SafeToRetry(err) {
		return true
	}
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03")
}

// isLostConnection reports whether err says the connection broke, so the
// statement may not have run.
func isLostConnection(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// 57P01 admin_shutdown (pg_terminate_backend), 57P02 crash_shutdown,
		// 57P03 cannot_connect_now, class 08 connection exceptions.
		return pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03" || strings.HasPrefix(pgErr.Code, "08")
	}
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		// 1053 server shutdown, 1927 connection killed (MariaDB),
		// 2006 gone away, 2013 lost during query.
		switch myErr.Number {
		case 1053, 1927, 2006, 2013:
			return true
		}
		return false
	}
	var netErr net.Error
	if errors.As(err, &netErr) && !netErr.Timeout() {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) || pgconn.SafeToRetry(err)
}

func postgresMessage(e *pgconn.PgError, timeout string) (string, bool) {
	name, value := clipQuoted(e.Message, nameQuote), clipQuoted(e.Message, valueQuote)
	switch e.Code {
	case "23505":
		return fmt.Sprintf("The statement broke the unique constraint %s: %s", quoteName(e.ConstraintName, e.TableName), postgresDuplicate(e.Detail)), false
	case "23503":
		return fmt.Sprintf("The statement broke the foreign-key constraint %s: %s", quoteName(e.ConstraintName, e.TableName), postgresReference(e.Detail)), false
	case "23P01":
		// The detail would quote the key of the existing row it conflicts
		// with, which is not the model's own input.
		return fmt.Sprintf("The statement broke the exclusion constraint %s: it conflicts with an existing row.", quoteName(e.ConstraintName, e.TableName)), false
	case "23502":
		return fmt.Sprintf("The column %s cannot be null; give it a value.", quoteName(e.ColumnName, e.TableName)), false
	case "23514":
		return fmt.Sprintf("The statement broke the check constraint %s: a value is out of the allowed range.", quoteName(e.ConstraintName, e.TableName)), false
	case "25006":
		return msgReadOnly, false
	case "57014":
		// query_canceled is both statement_timeout and a cancel request
		// from another session; only the message tells them apart. The
		// caller's own cancellations were recognised by their context.
		if strings.Contains(e.Message, "statement timeout") {
			return fmt.Sprintf(msgTimeout, timeout), false
		}
		return msgKilled, true
	case "40001", "40P01":
		return "The database aborted the statement because of a conflict with another transaction; retrying may help.", true
	case "53300":
		return "The database has too many connections; retrying later may help.", true
	}
	switch {
	case e.Code == "42601":
		return "The SQL statement has a syntax error: " + name + ". The tool's query must be fixed in its configuration.", false
	case strings.HasPrefix(e.Code, "42"):
		return "The database refused the statement: " + name + ". The tool's query or the database schema must be fixed.", false
	case strings.HasPrefix(e.Code, "22"):
		return "A value does not fit: " + value + ". Check the arguments.", false
	case strings.HasPrefix(e.Code, "57P"), strings.HasPrefix(e.Code, "08"):
		return msgLost, true
	}
	return "The database refused the statement: " + value + " (SQLSTATE " + e.Code + ").", false
}

// Constraint explanations when the database names neither the columns nor
// the values.
const (
	duplicateRow    = "a row with the same key already exists."
	missingRef      = "a value names no row of the table it refers to; give one that exists there."
	stillReferenced = "other rows still refer to this one; change or delete them first."
	eitherRef       = "the referenced row does not exist, or other rows still refer to this one."
)

// postgresKey reads the detail of a unique or foreign-key violation:
// Key (cols)=(values) already exists, is not present in table "t", or is
// still referenced from table "t". The detail is missing or has no values
// when the role may not read the table.
var postgresKey = lazyregexp.New(`^Key \((.+?)\)=\((.*)\) (already exists|is not present in table|is still referenced from table)( "(.*)")?\.$`)

// postgresKeyOf returns the columns, the values (cut when long), what
// happened and the table named by a Postgres key detail; ok is false for
// another detail.
func postgresKeyOf(detail string) (cols, vals, what, table string, ok bool) {
	m := postgresKey.FindStringSubmatch(detail)
	if m == nil {
		return "", "", "", "", false
	}
	vals, note := clipText(m[2], valueQuote)
	return m[1], vals + note, m[3], m[5], true
}

// postgresDuplicate explains a unique violation with the key the database
// names: a row with (email)=(a@example.com) already exists.
func postgresDuplicate(detail string) string {
	cols, vals, what, _, ok := postgresKeyOf(detail)
	if !ok || what != "already exists" {
		return duplicateRow
	}
	return fmt.Sprintf("a row with (%s)=(%s) already exists.", cols, vals)
}

// postgresReference explains a foreign-key violation in the direction the
// database names: a value that refers to no row, or a row others refer to.
func postgresReference(detail string) string {
	cols, vals, what, table, ok := postgresKeyOf(detail)
	switch {
	case ok && what == "is not present in table":
		return fmt.Sprintf("(%s)=(%s) names no row of table %q; give a value that exists there.", cols, vals, table)
	case ok && what == "is still referenced from table":
		return fmt.Sprintf("rows of table %q still refer to (%s)=(%s); change or delete them first.", table, cols, vals)
	case strings.Contains(detail, "is not present in table"):
		return missingRef
	case strings.Contains(detail, "is still referenced from table"):
		return stillReferenced
	}
	return eitherRef
}

// mysqlUserHost finds the 'user'@'host' of a MySQL permission error
// ("SELECT command denied to user 'app'@'10.0.0.5' for table 'orders'"):
// the host, where mcpdecl connects from, is for the server log only.
var mysqlUserHost = lazyregexp.New(`'([^']*)'@'[^']*'`)

// mysqlKey finds the key name in "Duplicate entry 'x' for key 't.k'".
var mysqlKey = lazyregexp.New("for key '([^']*)'")

// mysqlDuplicate finds the value in "Duplicate entry 'x' for key 'k'";
// the value is not escaped, so it runs to the last "' for key '".
var mysqlDuplicate = lazyregexp.New(`(?s)^Duplicate entry '(.*)' for key '[^']*'$`)

// mysqlForeignKey reads the foreign key a 1451 or 1452 error names:
// (`db`.`child`, CONSTRAINT `fk` FOREIGN KEY (`col`) REFERENCES `parent` (`id`)).
var mysqlForeignKey = lazyregexp.New("\\(`[^`]*`\\.`([^`]*)`, CONSTRAINT `[^`]*` FOREIGN KEY \\((.*?)\\) REFERENCES `([^`]*)` \\((.*?)\\)")

// mysqlDuplicateText explains a MySQL unique violation with the value the
// database names.
func mysqlDuplicateText(msg string) string {
	m := mysqlDuplicate.FindStringSubmatch(msg)
	if m == nil {
		return duplicateRow
	}
	// MariaDB cuts a long value itself, to 64 bytes and "...".
	v, cut := strings.CutSuffix(m[1], "...")
	v, note := clipText(v, valueQuote)
	if cut && !strings.HasSuffix(v, "…") {
		v += "…"
	}
	return fmt.Sprintf("a row with the key '%s'%s already exists.", v, note)
}

// mysqlReference explains a MySQL foreign-key violation: 1452 (and 1216)
// a child row that refers to no row, 1451 (and 1217) a parent row that
// others still refer to.
func mysqlReference(number uint16, msg string) string {
	m := mysqlForeignKey.FindStringSubmatch(msg)
	switch {
	case (number == 1452) && m != nil:
		return fmt.Sprintf("%s names no row of table `%s` (column %s); give a value that exists there.", m[2], m[3], m[4])
	case (number == 1451) && m != nil:
		return fmt.Sprintf("rows of table `%s` still refer to this row of `%s` (through %s); change or delete them first.", m[1], m[3], m[2])
	case number == 1452 || number == 1216:
		return missingRef
	}
	return stillReferenced
}

// mysqlConstraint finds the constraint name in a foreign-key or check
// failure: CONSTRAINT `name`, or constraint 'name'.
var mysqlConstraint = lazyregexp.New("(?i)constraint [`']([^`']*)[`']")

// mysqlColumn finds the column name in "Column 'x' cannot be null".
var mysqlColumn = lazyregexp.New("(?i)(?:column|field) '([^']*)'")

// mysqlTimedOut finds the reason of a statement stopped by MySQL's
// max_execution_time or MariaDB's max_statement_time, as "Sort aborted"
// (1028) gives it.
var mysqlTimedOut = lazyregexp.New(`(?i)max_statement_time|max_execution_time|maximum statement execution time`)

func mysqlMessage(e *mysql.MySQLError, timeout string) (string, bool) {
	msg := mysqlUserHost.ReplaceAllString(e.Message, "'$1'")
	name, value := clipQuoted(msg, nameQuote), clipQuoted(msg, valueQuote)
	find := func(re *lazyregexp.Regexp) string {
		if m := re.FindStringSubmatch(e.Message); m != nil {
			return "`" + m[1] + "`"
		}
		return "(unnamed)"
	}
	switch e.Number {
	case 1062, 1586:
		return fmt.Sprintf("The statement broke the unique constraint %s: %s", find(mysqlKey), mysqlDuplicateText(e.Message)), false
	case 1451, 1452, 1216, 1217:
		return fmt.Sprintf("The statement broke the foreign-key constraint %s: %s", find(mysqlConstraint), mysqlReference(e.Number, e.Message)), false
	case 1048, 1364:
		return fmt.Sprintf("The column %s cannot be null; give it a value.", find(mysqlColumn)), false
	case 3819, 4025:
		return fmt.Sprintf("The statement broke the check constraint %s: a value is out of the allowed range.", find(mysqlConstraint)), false
	case 1792, 1290, 1836:
		return msgReadOnly, false
	case 3024, 1969: // max_execution_time (MySQL), max_statement_time (MariaDB)
		return fmt.Sprintf(msgTimeout, timeout), false
	case 1317: // KILL QUERY, from an administrator or another session
		return msgKilled, true
	case 1028: // "Sort aborted: " and why
		if mysqlTimedOut.MatchString(e.Message) {
			return fmt.Sprintf(msgTimeout, timeout), false
		}
		return msgKilled, true
	case 1205, 1213:
		return "The database aborted the statement because of a conflict with another transaction; retrying may help.", true
	case 1040, 1203:
		return "The database has too many connections; retrying later may help.", true
	case 1053, 1927, 2006, 2013:
		return msgLost, true
	case 1064, 1149:
		return "The SQL statement has a syntax error: " + name + ". The tool's query must be fixed in its configuration.", false
	case 1146, 1054, 1052, 1142, 1143, 1044, 1045:
		return "The database refused the statement: " + name + ". The tool's query or the database schema must be fixed.", false
	case 1264, 1265, 1292, 1366, 1406, 1690:
		return "A value does not fit: " + value + ". Check the arguments.", false
	}
	return fmt.Sprintf("The database refused the statement: %s (error %d).", value, e.Number), false
}

// sqliteCode matches the " (2067)" a modernc message ends with.
var sqliteCode = lazyregexp.New(` \(\d+\)$`)

func (a *Action) sqliteMessage(e *sqlite.Error, timeout string, args []any) (string, bool) {
	msg := sqliteCode.ReplaceAllString(e.Error(), "")
	if _, after, ok := strings.Cut(msg, ": "); ok {
		msg = after // drop the generic "constraint failed: " or "SQL logic error: "
	}
	if m, ok := a.sqliteValueMessage(e, msg, args); ok {
		return m, false
	}
	msg = clipQuoted(msg, valueQuote)
	what := ""
	if _, cols, ok := strings.Cut(msg, "constraint failed: "); ok {
		what = cols
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return fmt.Sprintf("The statement broke a unique constraint on %s: a row with the same key already exists.", what), false
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return "The statement broke a foreign-key constraint: " + a.sqliteReference(), false
	case sqlite3.SQLITE_CONSTRAINT_NOTNULL:
		return fmt.Sprintf("The column %s cannot be null; give it a value.", what), false
	case sqlite3.SQLITE_CONSTRAINT_CHECK:
		return fmt.Sprintf("The statement broke the check constraint %s: a value is out of the allowed range.", what), false
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_READONLY:
		return msgReadOnly, false
	case sqlite3.SQLITE_INTERRUPT:
		return fmt.Sprintf(msgTimeout, timeout), false
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return msgBusy, true
	case sqlite3.SQLITE_CONSTRAINT:
		return "The statement broke a constraint: " + msg + ".", false
	case sqlite3.SQLITE_ERROR:
		if strings.Contains(msg, "syntax error") {
			return "The SQL statement has a syntax error: " + msg + ". The tool's query must be fixed in its configuration.", false
		}
		return "The database refused the statement: " + msg + ". The tool's query or the database schema must be fixed.", false
	}
	return "The database refused the statement: " + msg + ".", false
}

// sqliteReference explains an SQLite foreign-key violation, whose message
// names neither the key nor the direction: an INSERT can only refer to a
// missing row and a DELETE only remove one that others refer to (unless
// they are INSERT OR REPLACE and REPLACE, which do both).
func (a *Action) sqliteReference() string {
	q := a.Query.Text
	switch {
	case a.Query.Verb == "INSERT" && !replaces(q):
		return missingRef
	case a.Query.Verb == "DELETE":
		return stillReferenced
	}
	return eitherRef
}

// replaces reports whether an INSERT says OR REPLACE.
func replaces(q string) bool {
	return strings.Contains(strings.ToUpper(q), "REPLACE")
}

// longText is the length from which a text argument is taken for the
// cause of a "too long" error rather than the query.
const longText = 1000

// sqliteValueMessage describes the SQLite errors an argument causes rather
// than the query: a value too long for a LIKE pattern or for any text, or
// one of the wrong type for an INTEGER PRIMARY KEY. ok is false for others.
func (a *Action) sqliteValueMessage(e *sqlite.Error, msg string, args []any) (string, bool) {
	switch {
	case strings.Contains(msg, "LIKE or GLOB pattern too complex"):
		// SQLite caps a pattern at 50,000 bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH).
		return a.tooLong(args, "a LIKE or GLOB pattern"), true
	case e.Code()&0xff == sqlite3.SQLITE_TOOBIG:
		return a.tooLong(args, "a text or blob"), true
	case e.Code()&0xff == sqlite3.SQLITE_MISMATCH:
		return "A value does not fit: datatype mismatch (an INTEGER PRIMARY KEY holds whole numbers only). Check the arguments.", true
	}
	return "", false
}

// tooLong tells the model that a value was too long for what, naming the
// longest text argument when it is long enough to be the cause.
func (a *Action) tooLong(args []any, what string) string {
	best, n := -1, 0
	for i, v := range args {
		if s, ok := v.(string); ok && utf8.RuneCountInString(s) > n {
			best, n = i, utf8.RuneCountInString(s)
		}
	}
	if n < longText {
		return fmt.Sprintf("A value is too long for %s in the database. Check the arguments and send shorter ones.", what)
	}
	return fmt.Sprintf("A value is too long: %s has %s, more than the database accepts in %s. Send a shorter value.", a.paramName(best), english.Count(n, "character"), what)
}

// quoteName renders a constraint or column name for a message.
func quoteName(name, table string) string {
	switch {
	case name == "":
		return "(unnamed)"
	case table != "":
		return fmt.Sprintf("%q on table %q", name, table)
	}
	return fmt.Sprintf("%q", name)
}
