package serving

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestServeHostileRebindEveryRoute visits every route the --http listener
// and the --metrics-addr listener register (as their muxes list them),
// and a path neither registers, under a DNS-rebinding Host and under a
// foreign Origin: each gets 403. The listener's own address passes.
func TestServeHostileRebindEveryRoute(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, reloadConfigA)
	var banner lockedBuffer
	inst, err := Start(context.Background(), Options{
		Paths: []string{config}, HTTP: "127.0.0.1:0",
		Metrics: true, MetricsAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(&banner, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	metricsAddr := regexp.MustCompile(`metrics on http://([^/]+)/`).FindStringSubmatch(banner.String())
	if metricsAddr == nil {
		t.Fatalf("no metrics address in %q", banner.String())
	}
	ln, mux := inst.ln, inst.mux

	listeners := []struct {
		addr   string
		routes []string
	}{
		{ln.Addr().String(), mux.patterns},
		{metricsAddr[1], inst.addrRoutes.patterns},
	}
	for _, l := range listeners {
		if len(l.routes) == 0 {
			t.Fatalf("%s lists no routes", l.addr)
		}
		for _, path := range append(routePaths(l.routes), "/no-such-route") {
			url := "http://" + l.addr + path
			if got := status(t, url, "rebind.attacker.example", ""); got != http.StatusForbidden {
				t.Errorf("%s with a rebound Host: %d, want 403", url, got)
			}
			if got := status(t, url, "rebind.attacker.example:"+port(l.addr), ""); got != http.StatusForbidden {
				t.Errorf("%s with a rebound Host and port: %d, want 403", url, got)
			}
			if got := status(t, url, "", "http://rebind.attacker.example"); got != http.StatusForbidden {
				t.Errorf("%s with a foreign Origin: %d, want 403", url, got)
			}
			if got := status(t, url, "", ""); got == http.StatusForbidden {
				t.Errorf("%s with its own Host: 403", url)
			}
			if got := status(t, url, "localhost:"+port(l.addr), "http://localhost:1234"); got == http.StatusForbidden {
				t.Errorf("%s as localhost with a loopback Origin: 403", url)
			}
		}
	}
}

// routePaths turns mux patterns ("GET /x/{id}") into request paths.
func routePaths(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		if _, path, ok := strings.Cut(p, " "); ok {
			p = path
		}
		out = append(out, regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(p, "x"))
	}
	return out
}

func port(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

// status GETs url with Host (when not "") and Origin (when not "").
func status(t *testing.T, url, host, origin string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

const reloadConfigA = `
server {
  name    = "reload"
  version = "1.0.0"
}

tool "greet" {
  description = "Greet someone."
  arg "name" {
    type = string
  }
  result {
    text = "'Hello ' + args.name"
  }
}
`
