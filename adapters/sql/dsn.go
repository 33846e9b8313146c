package sqladapter

import (
	"cmp"
	"errors"
	"io/fs"
	"net/url"
	"slices"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// A DSN may hold a password, and every message about one may reach a log,
// a terminal or the model. This file holds what reads a DSN for a message:
// RedactDSN and scrub hide its password, and the parsers below say what is
// wrong with a DSN that does not parse without quoting any of it, since a
// driver's message about such a DSN may quote the part that holds the
// password.

const redacted = "xxxxx"

var (
	// kvPassword finds password=value pairs; a quoted value that is never
	// closed runs to the end, as the driver would read it.
	kvPassword = lazyregexp.New(`(?i)\b(password|passwd|pwd|pass|sslpassword)(\s*=\s*)('(?:[^'\\]|\\.)*(?:'|$)|[^\s&;]*)`)
	urlScheme  = lazyregexp.New(`^[A-Za-z][A-Za-z0-9+.-]*://`)
)

// Hints for DSNs that do not parse. None quotes the DSN.
const (
	urlPasswordHint = "the password holds characters that must be percent-encoded in a URL: space, #, /, %, ?, @ (write them as %20, %23, %2F, %25, %3F, %40)"
	pgFormHint      = "it is neither a postgres:// URL nor keyword=value pairs such as host=db user=app password='pass word' dbname=shop (in those, quote a value that holds spaces with single quotes, and write \\' and \\\\ for a quote or a backslash inside it)"
	mysqlURLHint    = "the MySQL driver does not read URLs such as mysql://user:password@host:3306/db; write user:password@tcp(host:3306)/db"
	mysqlSlashHint  = "the database name is missing: end the DSN with /dbname, as in user:password@tcp(host:3306)/dbname"
	mysqlNetHint    = "the address must follow the @ as tcp(host:port) or unix(/path/to/socket), as in user:password@tcp(host:3306)/dbname"
	mysqlDBNameHint = "the database name (after the last /) holds a % that does not start a valid %XX escape"
)

// RedactDSN hides the password in a DSN: in URLs (user:pw@host and
// ?password=), in key=value strings (password=...) and in MySQL's
// user:pw@tcp(host)/db form. A password that a driver would misread (one
// holding an unencoded "@", "/" or space) is hidden whole all the same.
func RedactDSN(d Dialect, dsn string) string {
	start, end, ok := urlPasswordSpan(dsn)
	if !ok && d == MySQL {
		start, end, ok = mysqlPasswordSpan(dsn)
	}
	if ok {
		dsn = dsn[:start] + redacted + dsn[end:]
	}
	var sb strings.Builder
	last := 0
	for _, v := range kvPasswordValues(dsn) {
		sb.WriteString(dsn[last:v[0]])
		sb.WriteString(redacted)
		last = v[1]
	}
	sb.WriteString(dsn[last:])
	return sb.String()
}

// kvPasswordValues returns the start and end of each password=value's
// value. An unquoted value followed by words that are not key=value pairs
// (password=pass word) takes them in: a driver would refuse the DSN, and
// the words are likely the rest of the password.
func kvPasswordValues(dsn string) [][2]int {
	var out [][2]int
	for _, m := range kvPassword.FindAllStringSubmatchIndex(dsn, -1) {
		start, end := m[6], m[7]
		if start == end || dsn[start] != '\'' {
			end = extendBareValue(dsn, end)
		}
		out = append(out, [2]int{start, end})
	}
	return out
}

// extendBareValue returns the end of the words without "=" that follow
// dsn[:end], separated by spaces.
func extendBareValue(dsn string, end int) int {
	for {
		rest := dsn[end:]
		word := strings.TrimLeft(rest, " \t")
		if len(word) == len(rest) || word == "" {
			return end
		}
		n := strings.IndexAny(word, " \t")
		if n < 0 {
			n = len(word)
		}
		if strings.ContainsAny(word[:n], "=&;") {
			return end
		}
		end += len(rest) - len(word) + n
	}
}

// urlPasswordSpan returns where the password of a URL DSN lies: from the
// first ":" of the user information to the last "@". Parsers end the user
// information earlier, at the first "/", "?" or "#" (net/url) or the first
// "@" (libpq, pgx), which is where such a character left unencoded in a
// password cuts it and spills the rest into the host or the path. Reading
// to the last "@" keeps such a password whole, at the cost of hiding more
// than the password when a later part (a query value) holds an "@".
func urlPasswordSpan(dsn string) (start, end int, ok bool) {
	scheme := urlScheme.FindString(dsn)
	if scheme == "" {
		return 0, 0, false
	}
	rest := dsn[len(scheme):]
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return 0, 0, false
	}
	colon := strings.IndexByte(rest[:at], ':')
	if colon < 0 {
		return 0, 0, false
	}
	return len(scheme) + colon + 1, len(scheme) + at, true
}

// mysqlPasswordSpan returns where the password of a MySQL DSN lies, read
// as go-sql-driver/mysql reads it: between the first ":" and the last "@"
// before the last "/". Without an "@" there, a "/" in the password was
// taken for the last one, so the last "@" of all ends it.
func mysqlPasswordSpan(dsn string) (start, end int, ok bool) {
	head := dsn
	if slash := strings.LastIndexByte(dsn, '/'); slash >= 0 {
		head = dsn[:slash]
	}
	at := strings.LastIndexByte(head, '@')
	if at < 0 {
		at = strings.LastIndexByte(dsn, '@')
	}
	if at < 0 {
		return 0, 0, false
	}
	colon := strings.IndexByte(dsn[:at], ':')
	if colon < 0 {
		return 0, 0, false
	}
	return colon + 1, at, true
}

// dsnPasswords returns every string that may be the DSN's password, longest
// first: as the driver reads it, as written, percent-decoded, and the
// pieces an unencoded "/", "#", "?", "@" or space would cut it into (which
// a driver that misread it may quote as a host, port or database name).
func dsnPasswords(d Dialect, dsn string) []string {
	var out []string
	add := func(pw string) {
		if len(pw) >= 3 && !slices.Contains(out, pw) {
			out = append(out, pw)
		}
	}
	switch d {
	case Postgres:
		if cfg, err := pgx.ParseConfig(dsn); err == nil {
			add(cfg.Password)
		}
	case MySQL:
		if cfg, err := mysql.ParseDSN(dsn); err == nil {
			add(cfg.Passwd)
		}
	}
	var raw []string
	if start, end, ok := urlPasswordSpan(dsn); ok {
		raw = append(raw, dsn[start:end])
	}
	if start, end, ok := mysqlPasswordSpan(dsn); ok && d == MySQL {
		raw = append(raw, dsn[start:end])
	}
	for _, v := range kvPasswordValues(dsn) {
		raw = append(raw, strings.Trim(dsn[v[0]:v[1]], "'"))
	}
	for _, pw := range raw {
		add(pw)
		if dec, err := url.PathUnescape(pw); err == nil {
			add(dec)
		}
		for _, piece := range strings.FieldsFunc(pw, func(r rune) bool { return strings.ContainsRune(" /#?@'\\", r) }) {
			if len(piece) >= 4 {
				add(piece)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// scrub hides the DSN and its password in a driver's message.
func (b *Backend) scrub(msg string) string {
	if b.DSN != "" {
		msg = strings.ReplaceAll(msg, b.DSN, RedactDSN(b.Driver, b.DSN))
	}
	return hidePasswords(msg, dsnPasswords(b.Driver, b.DSN))
}

func hidePasswords(msg string, passwords []string) string {
	for _, pw := range passwords {
		msg = strings.ReplaceAll(msg, pw, redacted)
	}
	return msg
}

// needsEncoding reports whether a URL's password holds a character that
// must be percent-encoded there, or a % that starts no %XX escape.
func needsEncoding(pw string) bool {
	if strings.ContainsAny(pw, " #/?@") {
		return true
	}
	_, err := url.PathUnescape(pw)
	return err != nil
}

// urlPasswordNeedsEncoding reports whether dsn is a URL whose password, as
// written, needs percent-encoding.
func urlPasswordNeedsEncoding(dsn string) bool {
	start, end, ok := urlPasswordSpan(dsn)
	return ok && needsEncoding(dsn[start:end])
}

// postgresConfig parses a Postgres DSN. Its errors never quote the DSN, nor
// pgx's message about a DSN that does not parse: pgx hides the passwords it
// recognises, but an unencoded space or "/" in a URL password makes it quote
// the rest of the password as the port.
func postgresConfig(dsn string) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("invalid Postgres DSN: " + postgresDSNProblem(dsn, err))
	}
	if urlPasswordNeedsEncoding(dsn) && passwordSpilled(cfg) {
		return nil, errors.New("invalid Postgres DSN: " + urlPasswordHint)
	}
	return cfg, nil
}

// passwordSpilled reports whether pgx read part of a URL password as a host
// or a database name, which would then appear in connection errors: an
// unencoded "@" ends the user information early and leaves the rest in the
// host, and a "/" before any "@" leaves it in the database name.
func passwordSpilled(cfg *pgx.ConnConfig) bool {
	if strings.Contains(cfg.Host, "@") || strings.Contains(cfg.Database, "@") {
		return true
	}
	return slices.ContainsFunc(cfg.Fallbacks, func(f *pgconn.FallbackConfig) bool { return strings.Contains(f.Host, "@") })
}

// postgresDSNProblem says what is wrong with a DSN pgx refused.
func postgresDSNProblem(dsn string, err error) string {
	var pce *pgconn.ParseConfigError
	if !errors.As(err, &pce) {
		// pgx's own settings, read once the DSN parsed; the message names
		// the setting, not the DSN.
		return hidePasswords(err.Error(), dsnPasswords(Postgres, dsn))
	}
	if urlPasswordNeedsEncoding(dsn) {
		return urlPasswordHint
	}
	// The same error without its connection string says only what is
	// wrong (a setting, a port); the syntax errors of the keyword=value
	// form may quote a piece of a password, so they get a hint instead.
	bare := *pce
	bare.ConnString = ""
	what := strings.TrimPrefix(bare.Error(), "cannot parse ``: ")
	if strings.HasPrefix(what, "failed to parse as keyword/value") {
		return pgFormHint
	}
	return hidePasswords(what, dsnPasswords(Postgres, dsn))
}

// mysqlDSNProblem says what is wrong with a DSN go-sql-driver/mysql refused.
// Its messages are kept where they quote no part of the DSN that may be the
// password: its "network" is whatever lies between the "@" and the address,
// which is part of the password when one holds a "/".
func mysqlDSNProblem(dsn string, err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "missing the slash separating the database name"):
		return mysqlSlashHint
	case strings.HasPrefix(msg, "default addr for network"):
		return mysqlNetHint
	case strings.HasPrefix(msg, "invalid dbname"):
		return mysqlDBNameHint
	}
	return hidePasswords(msg, dsnPasswords(MySQL, dsn))
}

// dialectName names a dialect in messages.
var dialectName = map[Dialect]string{SQLite: "SQLite", Postgres: "Postgres", MySQL: "MySQL"}

// dsnProblem says what is wrong with a DSN that the driver could not read,
// without any I/O and without quoting its password; "" when it reads.
// A Postgres DSN that names files of the machine that serves (a
// certificate, a service file) is not held against it here: this machine
// may not have them, and Open reports them.
func dsnProblem(d Dialect, dsn, baseDir string) string {
	var err error
	switch d {
	case SQLite:
		_, err = parseSQLiteDSN(dsn, baseDir)
	case MySQL:
		_, err = mysqlConfig(dsn)
	case Postgres:
		if machineDependent(dsn) {
			return ""
		}
		_, err = postgresConfig(dsn)
	}
	if err == nil {
		return ""
	}
	return strings.TrimPrefix(err.Error(), "invalid "+dialectName[d]+" DSN: ")
}

// machineDependent reports whether pgx refuses a Postgres DSN only for want
// of a file it names (a certificate, a key, a service file).
func machineDependent(dsn string) bool {
	_, err := pgx.ParseConfig(dsn)
	var pathErr *fs.PathError
	return err != nil && (errors.As(err, &pathErr) || strings.Contains(err.Error(), "failed to read service"))
}
