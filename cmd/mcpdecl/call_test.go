package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallExitCodes checks the exit status of each outcome: 0 success,
// 1 an error result, a protocol error or a broken configuration, 2 bad
// usage.
func TestCallExitCodes(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "c.hcl")
	writeFile(t, config, `
server {
  name    = "c"
  version = "1.0.0"
}

tool "half" {
  description = "Half of an even number."
  arg "n" {
    type = integer
  }
  result {
    structured = "{'half': args.n / 2}"
    is_error   = "args.n % 2 == 1"
  }
}

resource_template "item" {
  uri_template = "c://items/{id}"
  arg "id" {
    type = integer
  }
  text = "item ${args.id}"
}
`)
	broken := filepath.Join(dir, "broken.hcl")
	writeFile(t, broken, "tool \"x\" {\n")
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"half", "--arg", "n=4"}, 0, `"half": 2`, ""},
		{[]string{"half", "--json", `{"n": 3}`}, 1, "isError: true", ""},
		{[]string{"half", "--json", `{"n": "x"}`}, 1, "isError: true", ""},
		{[]string{"--resource", "c://items/7"}, 0, "item 7", ""},
		{[]string{"--resource", "c://items/x"}, 1, "protocol error -32602", ""},
		{[]string{"hlf"}, 2, "", `there is no tool "hlf". Did you mean "half"?`},
		{[]string{"half", "--arg", "n=two"}, 2, "", `--arg n: the value "two" is not an integer`},
		{[]string{"half", "--arg", "m=2"}, 2, "", `there is no argument "m"`},
		{[]string{"--prompt", "p"}, 2, "", `there is no prompt "p"`},
		{[]string{"--resource", "x://y"}, 2, "", `no resource or resource template serves "x://y"`},
		{[]string{"half", "--answer", "k"}, 2, "", `--answer "k": write it as KEY=JSON`},
		{[]string{"half", "--no-such-flag"}, 2, "", "unknown flag --no-such-flag"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"call", config}, tc.args...), &out, &errOut)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
		})
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"call", broken, "x"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "broken.hcl:") {
		t.Errorf("broken configuration: exit %d, stderr %s", code, errOut.String())
	}
}

// TestEnvFromSecretFileCLI: a value env() reads may come from the file
// NAME_FILE names, as container platforms mount secrets; both set is a
// load error naming the two.
func TestEnvFromSecretFileCLI(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "c.hcl")
	writeFile(t, config, `
server {
  name      = "c"
  version   = "1.0.0"
  allow_env = ["GREETING"]
}

variable "greeting" {
  type    = string
  default = env("GREETING")
}

resource "greet" {
  uri  = "c://greet"
  text = "hello ${var.greeting}"
}
`)
	secret := filepath.Join(dir, "greeting")
	writeFile(t, secret, "from a mounted file\n")
	t.Setenv("GREETING_FILE", secret)
	code, stdout, stderr := runCLI("call", config, "--resource", "c://greet")
	if code != 0 || !strings.Contains(stdout, "hello from a mounted file") || strings.Contains(stdout, "file\n\"") {
		t.Errorf("GREETING_FILE: exit %d\n%s\n%s", code, stdout, stderr)
	}
	t.Setenv("GREETING", "from the environment")
	code, _, stderr = runCLI("call", config, "--resource", "c://greet")
	if code != 1 || !strings.Contains(stderr, "both GREETING and GREETING_FILE are set") {
		t.Errorf("both set: exit %d\n%s", code, stderr)
	}
}
