package lang

import (
	"github.com/hashicorp/hcl/v2"
)

// Config is one decoded configuration: every block of every file given to
// [Load], in source order (files sorted by name).
type Config struct {
	Server *Server
	// Auth is the auth block; nil when there is none.
	Auth      *Auth
	Variables []*Variable
	Locals    []*hcl.Attribute
	Backends  []*Backend
	Tools     []*Tool
	Resources []*Resource
	Templates []*ResourceTemplate
	// Apps are the app blocks: resources with a ui:// URI holding an
	// HTML page.
	Apps    []*App
	Prompts []*Prompt
	// Tests are the test blocks, which only mcpdecl test runs.
	Tests []*Test
	// Toolsets are the toolset blocks: named parts of the tools, each
	// served at an endpoint of its own.
	Toolsets []*Toolset
	// Limits are the limit blocks: token buckets on tools/call.
	Limits []*Limit

	// Incomplete is set when a file could not be read or parsed, so some
	// blocks are missing and cross-references cannot be trusted.
	Incomplete bool

	// Files maps each file name to its parsed form; diagnostics are rendered
	// against it (source snippets). A configuration loaded with
	// LoadOptions.Lean keeps each file's text and top-level block headers
	// only (its Body is empty).
	Files map[string]*hcl.File

	// VarRefs and LocalRefs are the variables and locals that expressions
	// of the native-syntax files refer to (nil when there are none of
	// those files). A JSON-syntax file's references are in its text only.
	VarRefs, LocalRefs *Refs
}

// Server describes the server itself: what `server/discover` and
// `initialize` report about it.
type Server struct {
	Name         *hcl.Attribute `hcl:"name,optional"`
	Version      *hcl.Attribute `hcl:"version,optional"`
	Title        *hcl.Attribute `hcl:"title,optional"`
	Description  *hcl.Attribute `hcl:"description,optional"`
	Instructions *hcl.Attribute `hcl:"instructions,optional"`
	WebsiteURL   *hcl.Attribute `hcl:"website_url,optional"`
	// AllowEnv lists the environment variables that env() may read.
	AllowEnv *hcl.Attribute `hcl:"allow_env,optional"`
	// CacheScope is the cacheScope of 2026-07-28 results that may be
	// cached ("public" or "private"); the default is "private" with an
	// auth block, else "public".
	CacheScope *hcl.Attribute `hcl:"cache_scope,optional"`
	// Dynamic serves every endpoint in the dynamic mode: three meta-tools
	// (search, describe, call) instead of the tools themselves.
	Dynamic   *hcl.Attribute `hcl:"dynamic,optional"`
	Icons     []*Icon        `hcl:"icon,block"`
	Lint      []*Lint        `hcl:"lint,block"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// Icon is one icon of a server, tool, resource, template or prompt.
type Icon struct {
	Src       *hcl.Attribute `hcl:"src"`
	MimeType  *hcl.Attribute `hcl:"mime_type,optional"`
	Sizes     *hcl.Attribute `hcl:"sizes,optional"`
	Theme     *hcl.Attribute `hcl:"theme,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// Variable is an input variable: a value fixed when the server starts, from
// its default or set from the command line or the environment.
type Variable struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	Type        *hcl.Attribute `hcl:"type,optional"`
	Default     *hcl.Attribute `hcl:"default,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	Sensitive   *hcl.Attribute `hcl:"sensitive,optional"`
	DeclRange   hcl.Range      `hcl:",def_range"`
}

// Backend is a named connection (an HTTP API, a database, a command
// environment). Its body is decoded later by the adapter for Kind.
type Backend struct {
	Kind      string    `hcl:"kind,label"`
	KindRange hcl.Range `hcl:"kind,label_range"`
	Name      string    `hcl:"name,label"`
	NameRange hcl.Range `hcl:"name,label_range"`
	Body      hcl.Body  `hcl:",remain"`
	Lint      []*Lint
	DeclRange hcl.Range `hcl:",def_range"`
}

// Annotations are the behaviour hints of a tool.
type Annotations struct {
	Title       *hcl.Attribute `hcl:"title,optional"`
	ReadOnly    *hcl.Attribute `hcl:"read_only,optional"`
	Destructive *hcl.Attribute `hcl:"destructive,optional"`
	Idempotent  *hcl.Attribute `hcl:"idempotent,optional"`
	OpenWorld   *hcl.Attribute `hcl:"open_world,optional"`
	DeclRange   hcl.Range      `hcl:",def_range"`
}

// Validation is a condition over the arguments, checked before a call,
// with the message the model sees when it does not hold.
type Validation struct {
	Condition    *hcl.Attribute `hcl:"condition"`
	ErrorMessage *hcl.Attribute `hcl:"error_message"`
	DeclRange    hcl.Range      `hcl:",def_range"`
}

// ErrorRule turns a backend answer into an error result: the first rule
// whose When (an expr-lang condition) holds gives the Message (a template
// whose {{ ... }} pieces are expr-lang).
type ErrorRule struct {
	When      *hcl.Attribute `hcl:"when"`
	Message   *hcl.Attribute `hcl:"message"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// Result maps a backend answer to the result content.
type Result struct {
	Structured   *hcl.Attribute `hcl:"structured,optional"`
	Text         *hcl.Attribute `hcl:"text,optional"`
	MaxBytes     *hcl.Attribute `hcl:"max_bytes,optional"`
	MaxItems     *hcl.Attribute `hcl:"max_items,optional"`
	OutputSchema *hcl.Attribute `hcl:"output_schema,optional"`
	// IsError is an expr-lang condition; when it holds, the result is an
	// error result (isError) with the same content.
	IsError   *hcl.Attribute `hcl:"is_error,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}
