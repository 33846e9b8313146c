package httpadapter

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
)

func writePEM(t *testing.T, name, typ string, der []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// clientCert makes a self-signed client certificate and writes it and its
// key as PEM files.
func clientCert(t *testing.T) (cert *x509.Certificate, certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(7),
		Subject:               pkix.Name{CommonName: "mcpdecl test client"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ = x509.ParseCertificate(der)
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return cert, writePEM(t, "client.pem", "CERTIFICATE", der), writePEM(t, "client.key", "EC PRIVATE KEY", keyDER)
}

func tlsCall(t *testing.T, baseURL, tlsBlock string) error {
	t.Helper()
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  timeout  = "5s"
  %s
}
http "api" { path = "/x" }`, baseURL, tlsBlock), nil)
	res, err := c.invoke(0, args(nil), nil)
	if err == nil && res.Text != "secure" {
		t.Errorf("answer = %+v", res)
	}
	return err
}

func TestTLS(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secure") })
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	ca := writePEM(t, "ca.pem", "CERTIFICATE", srv.Certificate().Raw)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]

	cert, certFile, keyFile := clientCert(t)
	mtls := httptest.NewUnstartedServer(handler)
	mtls.Config.ErrorLog = log.New(io.Discard, "", 0)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	mtls.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	mtls.StartTLS()
	defer mtls.Close()
	mtlsCA := writePEM(t, "mtls-ca.pem", "CERTIFICATE", mtls.Certificate().Raw)

	plain := httptest.NewServer(handler)
	defer plain.Close()

	tests := []struct {
		name, url, block string
		want             string // "" for success
	}{
		{"trusted CA file", srv.URL, fmt.Sprintf(`tls { ca_file = %q }`, ca), ""},
		{"untrusted", srv.URL, "",
			"The TLS certificate of the API is not trusted (it is signed by an unknown authority). If the API uses a private certificate authority, set tls { ca_file = \"...\" } in the backend. Retrying will not help."},
		{"hostname mismatch", "https://localhost:" + port, fmt.Sprintf(`tls { ca_file = %q }`, ca),
			"The TLS certificate of the API does not match its host name. Check the backend's base_url"},
		{"insecure skip verify", srv.URL, `tls { insecure_skip_verify = true }`, ""},
		{"client certificate", mtls.URL, fmt.Sprintf(`tls {
    ca_file   = %q
    cert_file = %q
    key_file  = %q
  }`, mtlsCA, certFile, keyFile), ""},
		{"client certificate missing", mtls.URL, fmt.Sprintf(`tls { ca_file = %q }`, mtlsCA),
			"refused the TLS connection (certificate required). It may require a client certificate"},
		{"plain HTTP server", "https://" + strings.TrimPrefix(plain.URL, "http://"), "",
			"did not answer with TLS. If it serves plain HTTP, its base_url should start with http://."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tlsCall(t, tt.url, tt.block)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ce *adapter.CallError
			if !errors.As(err, &ce) || !strings.Contains(ce.Message, tt.want) || ce.Retryable || strings.Contains(ce.Message, port) {
				t.Errorf("error = %#v\nwant a CallError holding %q", err, tt.want)
			}
		})
	}
}

func TestOpenReportsBadTLSFiles(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(bad, []byte("not a certificate"), 0o600)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "https://127.0.0.1:1"
  tls { ca_file = %q }
}
http "api" { path = "/x" }`, bad), nil)
	err := c.backends["api"].Open(t.Context())
	if err == nil || !strings.Contains(err.Error(), "holds no PEM certificate") {
		t.Errorf("Open = %v", err)
	}
	if _, err := c.invoke(0, args(nil), nil); err == nil {
		t.Errorf("Invoke with a broken backend succeeded")
	}
}

func TestOpenRefusesLineBreakInCredentials(t *testing.T) {
	c := compileEnv(t, `
backend "http" "a" {
  base_url = "https://127.0.0.1:1"
  auth { bearer = env("TOKEN") }
}
backend "http" "b" {
  base_url = "https://127.0.0.1:1"
  headers  = { X-Key = env("TOKEN") }
}`, map[string]string{"TOKEN": "tok-secret\n"})
	for _, name := range []string{"a", "b"} {
		err := c.backends[name].Open(t.Context())
		if err == nil || !strings.Contains(err.Error(), "line break") || strings.Contains(err.Error(), "tok-secret") {
			t.Errorf("Open %s = %v", name, err)
		}
	}
}
