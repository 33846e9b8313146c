package sqladapter

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyconvert "github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// The database identity of the caller: a backend "sql" block may hold
//
//	identity {
//	  role     = "orders_reader"
//	  settings = { "app.tenant" = auth.claims.tenant }
//	}
//
// so that each statement runs as the caller, and the database's own
// rules (PostgreSQL row-level security reading current_setting) apply.
// On PostgreSQL each statement runs in a transaction that first does SET
// LOCAL ROLE (the role validated and quoted as an identifier) and
// set_config(name, value, true) with the name and value bound as
// parameters: both end with the transaction, so nothing is left on the
// pooled connection for the next caller. MySQL and MariaDB have no
// transaction-local role or setting: the settings become user variables
// (SET @name = ?) on a connection held for the call and set back to NULL
// after it (a connection that cannot be reset is closed, not reused), and
// a role is refused. SQLite has neither roles nor settings: refused.

// Identity is a compiled identity block.
type Identity struct {
	// Role is the role expression; nil when the block sets none.
	Role hcl.Expression
	// Settings are the settings, in the order written.
	Settings []Setting
	// DeclRange is where the block is written.
	DeclRange hcl.Range
}

// Setting is one setting of an identity block: its name, checked at
// load time, and the expression of its value, evaluated per call.
type Setting struct {
	Name  string
	Value hcl.Expression
}

// ActsForCaller implements adapter.ForCaller: a backend with an identity
// block runs each statement as its caller.
func (b *Backend) ActsForCaller() *adapter.CallerNeeds {
	if b.Identity == nil {
		return nil
	}
	return &adapter.CallerNeeds{Block: "identity", DeclRange: b.Identity.DeclRange}
}

var identitySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "role"}, {Name: "settings"}},
}

// BackendBlocks are the bodies of the blocks inside a backend "sql"
// block, by their path below it: what editors and the JSON Schema of the
// JSON syntax offer there (package langschema).
var BackendBlocks = map[string]*hcl.BodySchema{"identity": identitySchema}

// roleName is what a role may be called: a plain identifier, at most 63
// bytes (PostgreSQL's limit). It is quoted all the same.
var roleName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_$]{0,62}$`)

// pgSetting is a PostgreSQL custom setting: two or more dotted parts
// (an unqualified name would be a server setting, such as work_mem).
var pgSetting = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$`)

// myVariable is a MySQL or MariaDB user variable name, written after @.
var myVariable = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

func decodeIdentity(bb *adapter.BackendBlock, blk *hcl.Block, d Dialect) (*Identity, hcl.Diagnostics) {
	id := &Identity{DeclRange: blk.DefRange}
	if d == SQLite {
		return nil, hcl.Diagnostics{check.Error("No database identity in SQLite",
			"An identity block runs each statement as the caller's database role with the caller's settings, and SQLite has neither roles nor settings. Filter by the caller in the query instead (WHERE owner = ${auth.subject}), or use PostgreSQL.", blk.DefRange)}
	}
	s := bb.CallerScope
	if s == nil {
		s = bb.Scope
	}
	content, diags := blk.Body.Content(identitySchema)
	if attr := content.Attributes["role"]; attr != nil {
		if d == MySQL {
			diags = append(diags, check.Error("No role per statement in MySQL and MariaDB",
				"MySQL and MariaDB have no SET LOCAL ROLE: a role set on a pooled connection would outlive the call, so it is refused. Give the backend's user the rights of the role, and pass the caller's identity in settings (user variables such as @tenant) for the queries to read.", attr.NameRange))
		} else {
			v, d := s.CheckDynamic(attr, cty.String)
			diags = append(diags, d...)
			if v.IsKnown() && !v.IsNull() && !roleName.MatchString(v.AsString()) {
				diags = append(diags, badRole(v.AsString(), attr.Expr.Range()))
			}
			id.Role = attr.Expr
		}
	}
	if attr := content.Attributes["settings"]; attr != nil {
		id.Settings, diags = decodeSettings(s, attr, d, diags)
	}
	if id.Role == nil && len(id.Settings) == 0 && !diags.HasErrors() {
		diags = append(diags, check.Error("Empty identity block",
			"An identity block sets the caller's database role, settings, or both, as in settings = { \"app.tenant\" = auth.claims.tenant }.", blk.DefRange))
	}
	return id, diags
}

func decodeSettings(s *adapter.Scope, attr *hcl.Attribute, d Dialect, diags hcl.Diagnostics) ([]Setting, hcl.Diagnostics) {
	// hcl.ExprMap reads the object in either syntax (.hcl or .hcl.json).
	items, md := hcl.ExprMap(attr.Expr)
	if md.HasErrors() {
		return nil, append(diags, check.Error("Invalid settings",
			"settings is an object of setting names and values, as in { \"app.tenant\" = auth.claims.tenant }.", attr.Expr.Range()))
	}
	var out []Setting
	seen := map[string]bool{}
	for _, item := range items {
		item := struct{ KeyExpr, ValueExpr hcl.Expression }{hcl.UnwrapExpression(item.Key), item.Value}
		kv, kd := item.KeyExpr.Value(nil)
		if kd.HasErrors() || kv.Type() != cty.String || kv.IsNull() {
			diags = append(diags, check.Error("Invalid setting name",
				"A setting's name is a literal string, as in \"app.tenant\".", item.KeyExpr.Range()))
			continue
		}
		name := kv.AsString()
		switch {
		case d == Postgres && !pgSetting.MatchString(name):
			diags = append(diags, check.Error("Invalid setting name",
				fmt.Sprintf("%q is not a custom PostgreSQL setting: write a dotted name such as \"app.tenant\" (letters, digits and _ in each part), which a policy reads with current_setting('app.tenant').", name), item.KeyExpr.Range()))
			continue
		case d == MySQL && !myVariable.MatchString(name):
			diags = append(diags, check.Error("Invalid setting name",
				fmt.Sprintf("%q is not a user variable name: MySQL and MariaDB settings become user variables (@tenant), named with letters, digits and _, such as \"tenant\".", name), item.KeyExpr.Range()))
			continue
		case seen[name]:
			diags = append(diags, check.Error("Duplicate setting", fmt.Sprintf("The setting %q is set twice; keep one.", name), item.KeyExpr.Range()))
			continue
		}
		seen[name] = true
		_, vd := s.CheckExpr(item.ValueExpr, attr, cty.String)
		diags = append(diags, vd...)
		out = append(out, Setting{Name: name, Value: item.ValueExpr})
	}
	return out, diags
}

func badRole(role string, r hcl.Range) *hcl.Diagnostic {
	return check.Error("Invalid role name",
		fmt.Sprintf("%q is not a role name this backend sets: a role is letters, digits, _ and $, starting with a letter or _, at most 63 characters.", role), r)
}

// callerIdentity is an identity block evaluated for one call.
type callerIdentity struct {
	role string
	// names and values of the settings, in order.
	names, values []string
}

// evaluate computes the role and settings of the caller of req. A value
// the caller's token does not give (an absent optional claim) is an
// error: a statement never runs with a setting missing.
func (id *Identity) evaluate(req *adapter.Request) (*callerIdentity, error) {
	out := &callerIdentity{names: make([]string, len(id.Settings)), values: make([]string, len(id.Settings))}
	if id.Role != nil {
		role, err := identityString(req, id.Role, "role")
		if err != nil {
			return nil, err
		}
		if !roleName.MatchString(role) {
			return nil, &adapter.CallError{Message: fmt.Sprintf("The caller's database role %q is not a plain role name (letters, digits, _ and $), so the statement was not run. Retrying will not help.", role)}
		}
		out.role = role
	}
	for i, s := range id.Settings {
		v, err := identityString(req, s.Value, "the setting "+s.Name)
		if err != nil {
			return nil, err
		}
		out.names[i], out.values[i] = s.Name, v
	}
	return out, nil
}

func identityString(req *adapter.Request, expr hcl.Expression, what string) (string, error) {
	v, diags := expr.Value(req.Context(expr))
	if diags.HasErrors() {
		return "", fmt.Errorf("identity %s: %s", what, diags.Error())
	}
	if v.IsNull() || !v.IsKnown() {
		return "", &adapter.CallError{Message: fmt.Sprintf("The database identity of this backend needs %s, and the caller's access token does not give it (an optional claim is missing), so the statement was not run. Sign in with a token that carries it.", what)}
	}
	s, err := ctyconvert.Convert(v, cty.String)
	if err != nil {
		return "", fmt.Errorf("identity %s: %w", what, err)
	}
	return s.AsString(), nil
}

// quoteIdent quotes a PostgreSQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// execQueryer runs statements: a pool, a connection or a transaction.
type execQueryer interface {
	queryer
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// runAs runs the statement once as the caller.
func (a *Action) runAs(ctx context.Context, p *pools, args []any, asJSON bool, id *callerIdentity) (*outcome, error) {
	db := p.rw
	if a.ReadOnly {
		db = p.ro
	}
	if db == nil {
		return nil, fmt.Errorf("read-write call on a read-only backend")
	}
	if a.Backend.Driver == MySQL {
		return a.runAsMySQL(ctx, db, p, args, asJSON, id)
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: a.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if id.role != "" {
		if _, err := tx.ExecContext(ctx, "SET LOCAL ROLE "+quoteIdent(id.role)); err != nil {
			return nil, err
		}
	}
	if len(id.names) > 0 {
		var sb strings.Builder
		params := make([]any, 0, 2*len(id.names))
		sb.WriteString("SELECT ")
		for i := range id.names {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "set_config($%d, $%d, true)", 2*i+1, 2*i+2)
			params = append(params, id.names[i], id.values[i])
		}
		if _, err := tx.ExecContext(ctx, sb.String(), params...); err != nil {
			return nil, err
		}
	}
	out, err := a.runOn(ctx, p, tx, args, asJSON)
	if err != nil {
		return nil, err
	}
	return out, tx.Commit()
}

// runAsMySQL runs the statement on a connection held for the call, with
// the settings as user variables, set back to NULL afterwards.
func (a *Action) runAsMySQL(ctx context.Context, db *sql.DB, p *pools, args []any, asJSON bool, id *callerIdentity) (*outcome, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	set, reset := mysqlVariables(id)
	// Whatever happens from here, the variables are cleared before the
	// connection goes back to the pool, or the connection is dropped.
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := conn.ExecContext(rctx, reset); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	if _, err := conn.ExecContext(ctx, set, anyStrings(id.values)...); err != nil {
		return nil, err
	}
	if !a.ReadOnly {
		return a.runOn(ctx, p, conn, args, asJSON)
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return a.runOn(ctx, p, tx, args, asJSON)
}

// mysqlVariables writes "SET @a = ?, @b = ?" and "SET @a = NULL, @b =
// NULL" for the settings (their names checked at load time).
func mysqlVariables(id *callerIdentity) (set, reset string) {
	var s, r strings.Builder
	s.WriteString("SET ")
	r.WriteString("SET ")
	for i, n := range id.names {
		if i > 0 {
			s.WriteString(", ")
			r.WriteString(", ")
		}
		s.WriteString("@" + n + " = ?")
		r.WriteString("@" + n + " = NULL")
	}
	return s.String(), r.String()
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
