package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const registryConfig = `server {
  name        = "weather"
  version     = "1.4.2"
  title       = "Weather"
  description = "Forecasts and current conditions by city."
  website_url = "https://weather.example/docs"
  allow_env   = ["WEATHER_API_KEY", "WEATHER_REGION"]
}

variable "units" {
  type        = string
  description = "metric or imperial."
}

variable "db_password" {
  type      = string
  default   = "x"
  sensitive = true
}

backend "http" "api" {
  base_url = "https://api.weather.example"
  headers  = { "X-Key" = env("WEATHER_API_KEY"), "X-Region" = env("WEATHER_REGION", "eu") }
}

tool "forecast" {
  description = "The forecast for a city, for the next days."
  arg "city" {
    type        = string
    description = "The city's name, e.g. 'Lyon'."
  }
  http "api" {
    method = "GET"
    path   = "/forecast"
    query  = { city = args.city, units = var.units, again = env("WEATHER_API_KEY") }
  }
}
`

func writeRegistryConfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "weather.hcl")
	if err := os.WriteFile(p, []byte(registryConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func registrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/registry/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(registrySchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(registrySchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateServerJSON(t *testing.T, sch *jsonschema.Schema, out string) map[string]any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("not valid against the registry's schema: %v\n%s", err, out)
	}
	var m map[string]any
	_ = json.Unmarshal([]byte(out), &m)
	return m
}

// TestRegistrySchemaIsTheVendoredOne: the schema in testdata is the one
// its README names; replacing it is a deliberate change of both.
func TestRegistrySchemaIsTheVendoredOne(t *testing.T) {
	b, err := os.ReadFile("testdata/registry/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != "2e1e2dc758185bfc91023df4e5ace0e1c1bdb7b7b3d6614bb9ac6b9e9a9c2f68" {
		t.Errorf("sha256 %s: update testdata/registry/README.md with the schema's new origin", got)
	}
	if !bytes.Contains(b, []byte(`"$id": "`+registrySchemaURL+`"`)) {
		t.Errorf("the vendored schema is not %s, which the output's $schema names", registrySchemaURL)
	}
}

func TestRegistryServerJSON(t *testing.T) {
	sch := registrySchema(t)
	cfg := writeRegistryConfig(t)
	code, out, errOut := runCLI("registry", cfg, "--name", "io.github.example/weather", "--image", "ghcr.io/example/weather:1.4.2",
		"--repository", "https://github.com/example/weather", "--env-description", "WEATHER_REGION=The region of the forecasts.", "--secret", "WEATHER_REGION")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := validateServerJSON(t, sch, out)
	for k, want := range map[string]any{
		"$schema": registrySchemaURL, "name": "io.github.example/weather", "version": "1.4.2", "title": "Weather",
		"description": "Forecasts and current conditions by city.", "websiteUrl": "https://weather.example/docs",
		"repository": map[string]any{"url": "https://github.com/example/weather", "source": "github"},
	} {
		if !reflect.DeepEqual(doc[k], want) {
			t.Errorf("%s = %v, want %v", k, doc[k], want)
		}
	}
	pkg := doc["packages"].([]any)[0].(map[string]any)
	wantPkg := map[string]any{
		"registryType": "oci", "identifier": "ghcr.io/example/weather:1.4.2", "runtimeHint": "docker",
		"transport": map[string]any{"type": "stdio"},
		"packageArguments": []any{
			map[string]any{"type": "positional", "value": "serve"},
			map[string]any{"type": "positional", "value": "/etc/mcpdecl/config.hcl"},
		},
		"environmentVariables": []any{
			map[string]any{"name": "WEATHER_API_KEY", "description": "Read by the configuration (env() in weather.hcl, line 23).", "isRequired": true, "isSecret": true},
			map[string]any{"name": "WEATHER_REGION", "description": "The region of the forecasts.", "isRequired": false, "isSecret": true, "default": "eu"},
			map[string]any{"name": "MCPDECL_VAR_units", "description": "The variable units: metric or imperial.", "isRequired": true, "isSecret": false},
			map[string]any{"name": "MCPDECL_VAR_db_password", "description": "The variable db_password.", "isRequired": false, "isSecret": true},
		},
	}
	if !reflect.DeepEqual(pkg, wantPkg) {
		got, _ := json.MarshalIndent(pkg, "", "  ")
		want, _ := json.MarshalIndent(wantPkg, "", "  ")
		t.Errorf("package:\n%s\nwant:\n%s", got, want)
	}
}

// TestRegistryWithoutImage: the document is still valid, without a
// package, and stderr says what is missing.
func TestRegistryWithoutImage(t *testing.T) {
	code, out, errOut := runCLI("registry", writeRegistryConfig(t), "--name", "com.example/weather", "--version", "2.0.0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := validateServerJSON(t, registrySchema(t), out)
	if doc["version"] != "2.0.0" || doc["packages"] != nil {
		t.Errorf("version %v, packages %v", doc["version"], doc["packages"])
	}
	if !strings.Contains(errOut, "no --image") {
		t.Errorf("stderr does not say the package is missing: %s", errOut)
	}
}

func TestRegistryRefuses(t *testing.T) {
	cfg := writeRegistryConfig(t)
	noVersion := filepath.Join(t.TempDir(), "nov.hcl")
	_ = os.WriteFile(noVersion, []byte(strings.Replace(registryConfig, `version     = "1.4.2"`, "", 1)), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{cfg, "--name", "weather"}, `--name "weather": the registry takes NAMESPACE/NAME`},
		{[]string{cfg, "--name", "a/b", "--version", "^1.0"}, "one exact version"},
		{[]string{cfg, "--name", "a/b", "--description", strings.Repeat("x", 101)}, "at most 100"},
		{[]string{noVersion, "--name", "a/b"}, "no version: set version in the server block or give --version"},
		{[]string{cfg, "--name", "a/b", "--image", "x:1", "--env-description", "NOEQUALS"}, "write it as NAME=TEXT"},
		{[]string{cfg}, "missing flags: --name"},
	} {
		code, out, errOut := runCLI(append([]string{"registry"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
