package mcpadapter

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestDiagnostics: what a backend "mcp" block and an mcp call block may
// hold, each mistake at its line and column. A URL holding credentials is
// refused like the http backend's: errors quote the URL, and would carry
// the password to the model and the log.
func TestDiagnostics(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"a program and a URL", `
backend "mcp" "ok_stdio" {
  command = ["sh", "-c", "true"]
  env     = { A = "b" }
}
backend "mcp" "ok_http" {
  url     = "https://mcp.example.com/mcp"
  headers = { X-Team = "a" }
  auth {
    bearer = env("TOKEN")
  }
}
mcp "ok_http" {
  tool      = "echo"
  arguments = { message = "hi" }
}`, nil},
		{"two transports, none", `
backend "mcp" "both" {
  command = ["sh"]
  url     = "https://mcp.example.com/mcp"
}
backend "mcp" "none" {
  timeout = "5s"
}`, []string{"4:3 Two transports", "6:1 Missing transport"}},
		{"settings of the other transport", `
backend "mcp" "prog" {
  command = ["sh"]
  headers = { A = "b" }
}
backend "mcp" "web" {
  url = "https://mcp.example.com/mcp"
  dir = "/tmp"
}`, []string{"4:3 HTTP setting without url", "8:3 Program setting without command"}},
		{"client credentials", `
backend "mcp" "cc" {
  url = "https://mcp.example.com/mcp"
  auth {
    oauth2 {
      token_url     = "https://login.example.com/token"
      client_id     = "front"
      client_secret = env("TOKEN")
      scopes        = ["tools:call"]
      resource      = "https://mcp.example.com/"
    }
  }
}`, nil},
		{"auth methods", `
backend "mcp" "none" {
  url = "https://mcp.example.com/mcp"
  auth {
  }
}
backend "mcp" "both" {
  url = "https://mcp.example.com/mcp"
  auth {
    bearer = "t"
    oauth2 {
      token_url     = "https://login.example.com/token"
      client_id     = "front"
      client_secret = "s"
    }
  }
}
backend "mcp" "bad" {
  url = "https://mcp.example.com/mcp"
  auth {
    oauth2 {
      token_url     = "login.example.com/token"
      client_id     = "front"
      client_secret = "s"
      resource      = "mcp"
    }
  }
}`, []string{"4:3 Missing auth method", "9:3 Conflicting auth methods", "22:23 Invalid URL", "25:23 Invalid resource"}},
		{"bad URLs", `
backend "mcp" "rel" {
  url = "mcp.example.com/mcp"
}
backend "mcp" "creds" {
  url = "https://user:pw@mcp.example.com/mcp"
}`, []string{"3:9 Invalid URL", "6:9 Credentials in URL"}},
		{"arguments not an object", `
backend "mcp" "web" {
  url = "https://mcp.example.com/mcp"
}
mcp "web" {
  tool      = "echo"
  arguments = ["a"]
}`, []string{"7:15 Arguments not an object"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := checktest.Format(checktest.Compile(t, New(), c.src).Diags)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
