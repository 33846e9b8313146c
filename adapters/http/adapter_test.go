package httpadapter

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "valid backend and call",
			src: `
backend "http" "api" {
  base_url = var.base_url
  headers  = { Authorization = "Bearer ${env("TOKEN")}" }
  timeout  = "5s"
  retry { attempts = 3 }
}
http "api" {
  method = "GET"
  path   = "/books/${args.isbn}/copies"
  query  = { q = args.query, _limit = args.limit, tag = args.tags }
}`,
		},
		{
			name: "base url not known at validate time",
			src: `
backend "http" "api" {
  base_url = env("TOKEN")
}`,
		},
		{
			name: "missing base url",
			src: `
backend "http" "api" {
  timeout = "5s"
}`,
			want: []string{"2:22 Missing required argument"},
		},
		{
			name: "bad scheme, bad duration, unknown argument",
			src: `
backend "http" "api" {
  base_url = "ftp://files.example.com"
  timeout  = "5 seconds"
  max_response_bytes = 0
  retries = 3
}`,
			want: []string{
				"6:3 Unsupported argument",
				"3:14 Unsupported URL scheme",
				"4:14 Invalid duration",
				"5:24 Invalid number",
			},
		},
		{
			name: "relative base url and credentials in url",
			src: `
backend "http" "a" {
  base_url = "api.example.com/v1"
}
backend "http" "b" {
  base_url = "https://user:pw@api.example.com/?x=1"
}`,
			want: []string{
				"3:14 Invalid URL",
				"6:14 Credentials in URL",
				"6:14 Query in base URL",
			},
		},
		{
			name: "args not available in a backend",
			src: `
backend "http" "api" {
  base_url = "https://x.example.com/${args.query}"
}`,
			want: []string{"3:39 Arguments not available here"},
		},
		{
			name: "headers and forward headers",
			src: `
backend "http" "api" {
  base_url        = "https://x.example.com"
  headers         = { "Bad Header" = "x", accept = "a", Accept = "b" }
  forward_headers = ["X-Request-Id", "*", "authorization"]
}`,
			want: []string{
				"4:23 Invalid header name",
				"4:57 Duplicate header",
				"5:38 Invalid header name",
			},
		},
		{
			name: "retry block",
			src: `
backend "http" "api" {
  base_url = "https://x.example.com"
  retry {
    attempts  = 0
    min_wait  = "2s"
    max_wait  = "1s"
    on_status = [503, 42]
    methods   = ["GET", "get", "FETCH"]
  }
  retry {}
}`,
			want: []string{
				"11:3 Duplicate retry block",
				"5:17 Invalid number",
				"7:17 Invalid retry wait",
				"8:23 Invalid HTTP status",
				"9:25 Unknown HTTP method",
				"9:32 Unknown HTTP method",
			},
		},
		{
			name: "auth methods",
			src: `
backend "http" "a" {
  base_url = "https://x.example.com"
  auth {
    bearer = env("TOKEN")
    basic {
      username = "u"
      password = "p"
    }
  }
}
backend "http" "b" {
  base_url = "https://x.example.com"
  auth {}
}
backend "http" "c" {
  base_url = "https://x.example.com"
  auth {
    api_key {
      in    = "headers"
      name  = "X-Api-Key"
      value = env("TOKEN")
    }
  }
}
backend "http" "d" {
  base_url = "https://x.example.com"
  auth {
    oauth2 {
      token_url     = "auth.example.com/token"
      client_id     = "id"
      client_secret = env("TOKEN")
      scopes        = ["read"]
      scope         = "x"
    }
  }
}
backend "http" "e" {
  base_url = "https://x.example.com"
  auth {
    basic { username = "u" }
  }
}`,
			want: []string{
				"6:5 Conflicting auth methods",
				"14:3 Missing auth method",
				"20:15 Invalid API key location",
				"34:7 Unsupported argument",
				"30:23 Invalid URL",
				"41:13 Missing required argument",
			},
		},
		{
			name: "tls",
			src: `
backend "http" "api" {
  base_url = "https://x.example.com"
  tls {
    cert_file            = "/etc/passwd"
    ca_file              = "no/such/ca.pem"
    insecure_skip_verify = true
  }
}`,
			want: []string{
				"6:28 TLS file not found",
				"5:5 Missing TLS key file",
				"warning: 7:28 Certificate checks disabled",
			},
		},
		{
			name: "call method and path",
			src: `
backend "http" "api" { base_url = "https://x.example.com" }
http "api" {
  method = "get"
  path   = "books/${args.isbn}"
}
http "api" {
  method = "FETCH"
  path   = "/books?q=${args.query}"
}
http "api" {
  path = "${args.query}/x"
}
http "api" {
  path = "/books/${args.tags}/${args.nope}"
}`,
			want: []string{
				"4:12 Unknown HTTP method",
				"5:12 Invalid request path",
				"8:12 Unknown HTTP method",
				"9:19 Query in path",
				"12:10 Invalid request path",
				"15:20 Invalid value type",
				"15:33 Reference to undeclared argument",
			},
		},
		{
			name: "query and headers values",
			src: `
backend "http" "api" { base_url = "https://x.example.com" }
http "api" {
  query   = { ok = args.tags, bad = args.filters, (args.query) = 1 }
  headers = { "X-Ok" = args.query, "Not ok" = "x", X-Map = args.filters }
}
http "api" {
  query = args.query
}`,
			want: []string{
				"4:37 Invalid parameter value",
				"4:51 Invalid map key",
				"5:36 Invalid header name",
				"5:60 Invalid header value",
				"8:11 Invalid value type",
			},
		},
		{
			name: "request bodies",
			src: `
backend "http" "api" { base_url = "https://x.example.com" }
http "api" {
  body = { q = args.query }
}
http "api" {
  method   = "POST"
  body     = { q = args.query }
  form     = { q = args.query }
  raw_body = "x"
}
http "api" {
  method   = "PUT"
  raw_body = args.tags
}
http "api" {
  method       = "POST"
  form         = { q = args.query }
  content_type = "text/plain"
}
http "api" {
  content_type = "no type"
  timeout      = "-1s"
}
http "api" {
  method = "OPTIONS"
  body   = {}
}`,
			want: []string{
				"4:3 Request body not allowed",
				"9:3 Conflicting request bodies",
				"10:3 Conflicting request bodies",
				"14:14 Invalid value type",
				"14:3 Missing content type",
				"19:3 Conflicting content type",
				"22:18 Invalid content type",
				"22:3 Content type without body",
				"23:18 Invalid duration",
				"27:3 Request body not allowed",
			},
		},
		{
			// Names of headers, query parameters and form fields come from
			// the configuration: a map argument (or anything of unknown
			// type) would let a caller set Host, Authorization or Cookie.
			name: "names from the arguments",
			src: `
backend "http" "api" { base_url = "https://x.example.com" }
http "api" {
  headers = args.filters
}
http "api" {
  query = merge({ a = 1 }, args.filters)
}
http "api" {
  method = "POST"
  form   = jsondecode(args.query)
}
http "api" {
  headers = merge({ X-A = args.query }, { X-B = var.region })
  query   = { for k in ["a", "b"] : k => args.query }
}
http "api" {
  query = tomap({ region = var.region })
}`,
			want: []string{
				"4:13 Names from the arguments",
				"7:11 Names from the arguments",
				"11:12 Names from the arguments",
			},
		},
		{
			name: "template directive in path",
			src: `
backend "http" "api" { base_url = "https://x.example.com" }
http "api" {
  path = "/x/%{ if args.flag }a%{ endif }"
}`,
			want: []string{"4:14 Template directive not allowed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checktest.Compile(t, New(), tt.src)
			if diff := cmp.Diff(tt.want, checktest.Format(got.Diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
				for _, d := range got.Diags {
					t.Logf("%s", d.Error())
				}
			}
		})
	}
}

func TestCompiled(t *testing.T) {
	got := checktest.Compile(t, New(), `
backend "http" "api" {
  base_url        = "https://api.example.com/v1/"
  headers         = { authorization = "Bearer secret", accept = "application/json" }
  forward_headers = ["x-request-id", "Authorization"]
  retry {
    attempts = 4
    methods  = ["GET", "POST"]
  }
  auth {
    api_key {
      in    = "query"
      name  = "key"
      value = "hunter2"
    }
  }
}
http "api" {
  method  = "POST"
  path    = "/books/${args.isbn}/loans"
  query   = { tag = args.tags }
  headers = { "X-Trace" = args.query }
  body    = { isbn = args.isbn }
  timeout = "2s"
}`)
	if len(got.Diags) > 0 {
		t.Fatalf("unexpected diagnostics: %s", got.Diags.Error())
	}
	b := got.Backends["api"].(*Backend)
	wantBackend := map[string]any{
		"kind":               "http",
		"name":               "api",
		"base_url":           "https://api.example.com/v1",
		"timeout":            "30s",
		"max_response_bytes": int64(10 << 20),
		"headers":            []any{"Accept", "Authorization"},
		"retry": map[string]any{
			"attempts": 4, "min_wait": "100ms", "max_wait": "2s",
			"on_status": []any{429, 502, 503, 504}, "methods": []any{"GET", "POST"},
		},
		"auth":                   map[string]any{"kind": "api_key", "in": "query", "name": "key"},
		"forward_headers":        []any{"X-Request-Id", "Authorization"},
		"forwards_authorization": true,
	}
	if diff := cmp.Diff(wantBackend, b.Describe()); diff != "" {
		t.Errorf("backend Describe (-want +got):\n%s", diff)
	}
	if b.Headers["Authorization"] != "Bearer secret" || b.Auth.APIKeyValue != "hunter2" {
		t.Errorf("secrets not kept for the runtime: %+v %+v", b.Headers, b.Auth)
	}

	a := got.Actions[0].(*Action)
	wantAction := map[string]any{
		"kind": "http", "backend": "api", "method": "POST",
		"path":  "/books/{args.isbn}/loans",
		"query": []any{"tag"}, "headers": []any{"X-Trace"},
		"body": "body", "timeout": "2s",
	}
	if diff := cmp.Diff(wantAction, a.Describe()); diff != "" {
		t.Errorf("action Describe (-want +got):\n%s", diff)
	}
	if len(a.Path) != 3 || a.Path[0].Literal != "/books/" || a.Path[1].Expr == nil || a.Path[2].Literal != "/loans" {
		t.Errorf("path parts = %+v", a.Path)
	}
	if a.Timeout != 2*time.Second {
		t.Errorf("timeout = %s", a.Timeout)
	}
	_, err := a.Invoke(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "no request") {
		t.Errorf("Invoke error = %v", err)
	}
}

func TestDescribeHasNoSecrets(t *testing.T) {
	got := checktest.Compile(t, New(), `
backend "http" "api" {
  base_url = "https://api.example.com"
  headers  = { X-Token = "s3cret-header" }
  auth {
    oauth2 {
      token_url     = "https://auth.example.com/token"
      client_id     = "s3cret-id"
      client_secret = "s3cret-secret"
    }
  }
}`)
	if len(got.Diags) > 0 {
		t.Fatalf("unexpected diagnostics: %s", got.Diags.Error())
	}
	desc := cmp.Diff(nil, got.Backends["api"].Describe())
	if strings.Contains(desc, "s3cret") {
		t.Errorf("Describe leaks a secret:\n%s", desc)
	}
}
