package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// appsConfig writes a configuration with an app whose page is a file and
// returns its path.
func appsConfig(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "page.html"), "<html><head><title>t</title></head>\n<body><img src=\"https://img.example.com/a.png\"></body></html>\n")
	config := filepath.Join(dir, "apps.hcl")
	writeFile(t, config, `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "page.html"
  csp {
    connect_domains = ["https://api.example.com"]
  }
}

tool "totals" {
  description = "Order totals per customer, for the dashboard."
  annotations {
    read_only = true
  }
  ui {
    app = "dashboard"
  }
  content "text" {
    text = "{}"
  }
}
`)
	return config
}

// TestCallReadsApp reads an app with call --resource, as a client would
// receive it: the page with its policy, and _meta.ui.
func TestCallReadsApp(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"call", "--format", "json", appsConfig(t), "--resource", "ui://orders/dashboard"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var res struct {
		Contents []struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Meta     struct {
				UI map[string]any `json:"ui"`
			} `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res.Contents) != 1 {
		t.Fatalf("%v: %s", err, out.String())
	}
	c := res.Contents[0]
	if c.MimeType != "text/html;profile=mcp-app" || !strings.HasPrefix(c.Text, `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none';`) ||
		!strings.Contains(c.Text, "connect-src https://api.example.com;") || c.Meta.UI["csp"] == nil {
		t.Errorf("read: %s", out.String())
	}
}

// TestValidateApps counts apps apart from resources and reports the
// page's blocked image at its line in the page's file.
func TestValidateApps(t *testing.T) {
	config := appsConfig(t)
	var out, errOut bytes.Buffer
	code := run([]string{"validate", config}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "valid: 1 tool, 0 resources, 0 resource templates, 0 prompts and 1 app.") {
		t.Errorf("stdout: %s", out.String())
	}
	page := filepath.Join(filepath.Dir(config), "page.html")
	if !strings.Contains(errOut.String(), page+":2:17: warning: App page refers to what its policy blocks [MCPD601]") ||
		!strings.Contains(errOut.String(), `Add "https://img.example.com"`) {
		t.Errorf("stderr: %s", errOut.String())
	}
}
