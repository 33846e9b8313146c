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

// TestInspectApps shows an app among the resources, with its _meta.ui, and
// the linked tool's _meta.
func TestInspectApps(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"inspect", appsConfig(t)}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var l struct {
		Tools []struct {
			Meta map[string]any `json:"_meta"`
		} `json:"tools"`
		Resources []struct {
			URI      string         `json:"uri"`
			MimeType string         `json:"mimeType"`
			Meta     map[string]any `json:"_meta"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(out.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Resources) != 1 || l.Resources[0].URI != "ui://orders/dashboard" || l.Resources[0].MimeType != "text/html;profile=mcp-app" ||
		l.Resources[0].Meta["ui"] == nil || len(l.Tools) != 1 || l.Tools[0].Meta["ui/resourceUri"] != "ui://orders/dashboard" {
		t.Errorf("inspect: %s", out.String())
	}
}

// TestAppsSARIF: a finding in an app's page file is valid SARIF, located
// in that file.
func TestAppsSARIF(t *testing.T) {
	sch := officialSARIFSchema(t)
	config := appsConfig(t)
	log := validateSARIF(t, sch, filepath.Dir(config), "apps.hcl")
	text, _ := json.Marshal(log)
	for _, want := range []string{`"ruleId":"MCPD601"`, `"uri":"page.html"`, `"startLine":2`, `"startColumn":17`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("SARIF output lacks %s:\n%s", want, text)
		}
	}
}
