package httpadapter

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// TestSecretsNeverInMessages provokes every kind of failure with
// credentials taken from env() and checks that no message, wrapped error,
// log line, Failure or Describe output repeats one.
func TestSecretsNeverInMessages(t *testing.T) {
	secrets := map[string]string{"TOKEN": "tok-SECRET-1", "SECRET": "pw-SECRET-2", "KEY": "key-SECRET-3"}

	// An API that echoes the request back in its failures.
	echo := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, "http://example.invalid/x", http.StatusFound)
			return
		case "/big":
			io.WriteString(w, strings.Repeat("x", 2000))
			return
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			return
		}
		w.WriteHeader(401)
		fmt.Fprintf(w, "denied: %s %s %v", r.URL.RequestURI(), r.Header.Get("Authorization"), r.Header)
	})
	tokenEP := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		io.WriteString(w, `{"error": "invalid_client pw-SECRET-2", "error_description": "secret pw-SECRET-2 is wrong"}`)
	})
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()

	backends := fmt.Sprintf(`
backend "http" "echo" {
  base_url = "%[1]s"
  timeout  = "300ms"
  headers  = { X-Custom = env("SECRET"), Accept = "text/plain" }
  auth { bearer = env("TOKEN") }
}
backend "http" "query" {
  base_url = "%[1]s"
  auth {
    api_key {
      in    = "query"
      name  = "api_key"
      value = env("KEY")
    }
  }
}
backend "http" "refused" {
  base_url = "%[2]s"
  retry { min_wait = "1ms" }
  auth {
    api_key {
      in    = "query"
      name  = "api_key"
      value = env("KEY")
    }
  }
}
backend "http" "basic" {
  base_url = "%[1]s"
  max_response_bytes = 1000
  auth {
    basic {
      username = "u"
      password = env("SECRET")
    }
  }
}
backend "http" "tls" {
  base_url = "%[3]s"
  auth { bearer = env("TOKEN") }
}
backend "http" "oauth" {
  base_url = "%[1]s"
  auth {
    oauth2 {
      token_url     = "%[4]s/token"
      client_id     = "id"
      client_secret = env("SECRET")
    }
  }
}
`, echo.URL, refused, tlsSrv.URL, tokenEP.URL)
	calls := `
http "echo" { path = "/denied" }
http "echo" { path = "/away" }
http "echo" { path = "/slow" }
http "echo" {
  path    = "/x"
  headers = { X-Trace = args.query }
}
http "query" { path = "/denied" }
http "refused" { path = "/x" }
http "basic" { path = "/big" }
http "basic" { path = "/denied" }
http "tls" { path = "/x" }
http "oauth" { path = "/x" }
`
	c := compileEnv(t, backends+calls, secrets)
	var texts []string
	for i := range c.actions {
		var logs []string
		res, err := c.actions[i].Invoke(t.Context(), &adapter.Request{
			Args: args(map[string]cty.Value{"query": cty.StringVal("a\r\nX: " + secrets["TOKEN"])}), Static: c.static,
			Header:   http.Header{"Authorization": {"Bearer inbound"}},
			Progress: func(float64, float64, string) {},
			Log:      func(level string, data any) { logs = append(logs, fmt.Sprint(data)) },
		})
		texts = append(texts, logs...)
		var ce *adapter.CallError
		switch {
		case errors.As(err, &ce):
			texts = append(texts, ce.Message, ce.Error())
			if ce.Err != nil {
				texts = append(texts, ce.Err.Error())
			}
		case err != nil:
			t.Errorf("action %d: not a CallError: %v", i, err)
		default:
			if res.Failure == "" {
				t.Errorf("action %d succeeded: %+v", i, res)
			}
			texts = append(texts, res.Failure)
		}
		texts = append(texts, fmt.Sprintf("%#v", c.actions[i].Describe()))
	}
	for _, b := range c.backends {
		texts = append(texts, fmt.Sprintf("%#v", b.Describe()))
	}
	for _, text := range texts {
		for _, s := range []string{"SECRET", "cHctU0VDUkVULTI", "dTpwdy1TRUNSRVQtMg"} {
			if strings.Contains(text, s) {
				t.Errorf("a message leaks a secret:\n%s", text)
			}
		}
	}
	if testing.Verbose() {
		for _, text := range texts {
			t.Log(text)
		}
	}
	// The echo server did see the secrets: they were sent, not lost.
	if got := echo.requests()[0].Header.Get("Authorization"); got != "Bearer tok-SECRET-1" {
		t.Errorf("Authorization sent = %q", got)
	}
}

// TestCredentialsNotEchoed: an API that repeats the request's credentials
// in a successful answer (body, text, headers; escaped in JSON too) does
// not hand them to the model: static tokens from env() and OAuth2 access
// tokens alike are replaced.
func TestCredentialsNotEchoed(t *testing.T) {
	echo := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		auth := r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Seen-Auth", auth)
		escaped := strings.ReplaceAll(auth, "/", `\/`)
		fmt.Fprintf(w, `{"headers": {"authorization": %q}, "escaped": "%s", "list": [%q], %q: 1}`, auth, escaped, auth, auth)
	})
	tok := newTokenServer(t, 3600)
	for name, tc := range map[string]struct {
		src     string
		env     map[string]string
		secrets []string
	}{
		"bearer from env": {fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  auth {
    bearer = env("TOKEN")
  }
}
http "api" { path = "/echo" }`, echo.URL), map[string]string{"TOKEN": "tok/SECRET-echo-1"}, []string{"tok/SECRET-echo-1"}},
		"oauth2 access token": {oauthConfig(echo.URL, tok.URL), map[string]string{"SECRET": "s3cr%t"}, []string{"at-1"}},
	} {
		t.Run(name, func(t *testing.T) {
			c := compileEnv(t, tc.src, tc.env)
			res, err := c.invoke(0, args(nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Failure != "" {
				t.Fatalf("failure: %s", res.Failure)
			}
			seen := fmt.Sprintf("%s %v %v", res.Text, res.Fields, res.Structured)
			for _, secret := range tc.secrets {
				if strings.Contains(seen, secret) || strings.Contains(seen, strings.ReplaceAll(secret, "/", `\/`)) {
					t.Errorf("the answer repeats %q: %s", secret, seen)
				}
			}
			if !strings.Contains(res.Text, "[redacted]") || !strings.Contains(res.Fields["headers"].(map[string]string)["x-seen-auth"], "[redacted]") {
				t.Errorf("no sign of what was replaced: %s", seen)
			}
		})
	}
}
