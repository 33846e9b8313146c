package testenv

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"go.yaml.in/yaml/v3"
)

// fakeT records what a helper does to its test; Skip and Fatal end the
// goroutine, as they do on a real test.
type fakeT struct {
	testing.TB
	skipped, failed string
	logs            []string
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Skip(args ...any)  { f.skipped = sprint(args); runtime.Goexit() }
func (f *fakeT) Fatal(args ...any) { f.failed = sprint(args); runtime.Goexit() }
func (f *fakeT) Log(args ...any)   { f.logs = append(f.logs, sprint(args)) }
func sprint(args []any) string     { return strings.TrimSuffix(strings.Join(strs(args), " "), "\n") }
func strs(args []any) (out []string) {
	for _, a := range args {
		out = append(out, a.(string))
	}
	return out
}

// run calls f with a fake test in a goroutine of its own.
func run(f func(t testing.TB)) *fakeT {
	ft := &fakeT{}
	done := make(chan struct{})
	go func() { defer close(done); f(ft) }()
	<-done
	return ft
}

func TestServiceMessage(t *testing.T) {
	for _, s := range Services {
		msg := s.Message()
		if strings.ContainsAny(msg, "\r\n") {
			t.Errorf("%s: message of more than one line: %q", s.Name, msg)
		}
		for _, want := range []string{"needs " + s.Name + ":", s.Env + "=" + s.Example, "docker compose up -d", Section} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: message %q does not say %q", s.Name, msg, want)
			}
		}
	}
}

func TestNeedSkipsWhenUnset(t *testing.T) {
	t.Setenv(Redis.Env, "")
	ft := run(func(tb testing.TB) { Redis.Need(tb); tb.Log("went on") })
	if ft.skipped != Redis.Message() || len(ft.logs) != 0 {
		t.Errorf("Need with %s unset: skipped %q, logs %q; want skipped %q", Redis.Env, ft.skipped, ft.logs, Redis.Message())
	}
	t.Setenv(Redis.Env, "redis://127.0.0.1:1/0")
	var got string
	ft = run(func(tb testing.TB) { got = Need(tb, Redis.Env) })
	if ft.skipped != "" || got != "redis://127.0.0.1:1/0" {
		t.Errorf("Need with %s set: skipped %q, got %q", Redis.Env, ft.skipped, got)
	}
}

func TestOptionalLogsOneLine(t *testing.T) {
	t.Setenv(Postgres.Env, "")
	var got string
	ft := run(func(tb testing.TB) { got = Postgres.Optional(tb, "the PostgreSQL pool") })
	if got != "" || ft.skipped != "" || len(ft.logs) != 1 ||
		ft.logs[0] != "the PostgreSQL pool is not tested; "+Postgres.Message() {
		t.Errorf("Optional with %s unset: got %q, skipped %q, logs %q", Postgres.Env, got, ft.skipped, ft.logs)
	}
}

func TestByEnvUnknownPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("ByEnv of a variable no service is read from did not panic")
		}
	}()
	ByEnv("MCPDECL_NO_SUCH_VARIABLE")
}

func TestLineIsOneLine(t *testing.T) {
	if got, want := Line("the\nschema", "run\n  scripts/x.sh"), "needs the schema: run scripts/x.sh"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
}

func TestCommand(t *testing.T) {
	ft := run(func(tb testing.TB) { Command(tb, "mcpdecl-no-such-program", "apt-get install nothing") })
	if want := "needs mcpdecl-no-such-program on PATH: apt-get install nothing"; ft.skipped != want {
		t.Errorf("Command of a missing program skipped %q, want %q", ft.skipped, want)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mcpdecl-fake"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	var got string
	ft = run(func(tb testing.TB) { got = Command(tb, "mcpdecl-fake", "") })
	if ft.skipped != "" || got != filepath.Join(dir, "mcpdecl-fake") {
		t.Errorf("Command of a program on PATH: skipped %q, got %q", ft.skipped, got)
	}
}

func TestRequireFailsUnderCI(t *testing.T) {
	t.Setenv("CI", "")
	ft := run(func(tb testing.TB) { Require(tb, "the schema", "run scripts/x.sh") })
	if ft.skipped != "needs the schema: run scripts/x.sh" || ft.failed != "" {
		t.Errorf("Require without CI: skipped %q, failed %q", ft.skipped, ft.failed)
	}
	t.Setenv("CI", "true")
	ft = run(func(tb testing.TB) { Require(tb, "the schema", "run scripts/x.sh") })
	if ft.skipped != "" || !strings.HasPrefix(ft.failed, "needs the schema: run scripts/x.sh") {
		t.Errorf("Require under CI: skipped %q, failed %q", ft.skipped, ft.failed)
	}
}

// compose is the part of compose.yaml the tests rely on.
type compose struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Environment map[string]string `yaml:"environment"`
		Ports       []string          `yaml:"ports"`
		Command     []string          `yaml:"command"`
	} `yaml:"services"`
}

func readCompose(t *testing.T) compose {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(src, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c
}

// serviceAddr is the host, port and database each Service's example
// value names.
func serviceAddr(t *testing.T, s Service) (host, port, db string) {
	t.Helper()
	switch s {
	case MySQL:
		cfg, err := mysql.ParseDSN(s.Example)
		if err != nil {
			t.Fatalf("%s example %q: %v", s.Env, s.Example, err)
		}
		h, p, _ := strings.Cut(cfg.Addr, ":")
		if cfg.User != "root" || cfg.Passwd != "" {
			t.Errorf("%s example %q: want root without a password", s.Env, s.Example)
		}
		return h, p, cfg.DBName
	default:
		u, err := url.Parse(s.Example)
		if err != nil {
			t.Fatalf("%s example %q: %v", s.Env, s.Example, err)
		}
		if _, has := u.User.Password(); has {
			t.Errorf("%s example %q: want no password", s.Env, s.Example)
		}
		return u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/")
	}
}

// TestComposeMatchesServices: compose.yaml starts each service, with a
// pinned image, on 127.0.0.1 only, at the port and with the database and
// password-less user that the example value of its variable names.
func TestComposeMatchesServices(t *testing.T) {
	c := readCompose(t)
	if len(c.Services) != len(Services) {
		t.Errorf("compose.yaml has %d services, want the %d of testenv.Services", len(c.Services), len(Services))
	}
	pinned := regexp.MustCompile(`^[a-z0-9./-]+:[0-9]+\.[0-9]+(\.[0-9]+)?(-[a-z0-9]+)?$`)
	for _, s := range Services {
		cs, ok := c.Services[s.Compose]
		if !ok {
			t.Errorf("compose.yaml has no service %q (%s)", s.Compose, s.Name)
			continue
		}
		if !pinned.MatchString(cs.Image) {
			t.Errorf("compose.yaml %s: image %q is not pinned to a release (name:X.Y or name:X.Y.Z)", s.Compose, cs.Image)
		}
		host, port, db := serviceAddr(t, s)
		if want := []string{host + ":" + port + ":" + port}; strings.Join(cs.Ports, ",") != strings.Join(want, ",") || host != "127.0.0.1" {
			t.Errorf("compose.yaml %s: ports %q, want %q (loopback only, the port of %s)", s.Compose, cs.Ports, want, s.Env)
		}
		env := cs.Environment
		switch s {
		case Postgres:
			if env["POSTGRES_HOST_AUTH_METHOD"] != "trust" || env["POSTGRES_USER"] != "postgres" || env["POSTGRES_DB"] != db {
				t.Errorf("compose.yaml postgres: environment %v, want trust for user postgres and database %q", env, db)
			}
		case MySQL:
			if env["MARIADB_ALLOW_EMPTY_ROOT_PASSWORD"] == "" || env["MARIADB_DATABASE"] != db {
				t.Errorf("compose.yaml mariadb: environment %v, want an empty root password and database %q", env, db)
			}
		case Redis:
			if db != "15" {
				t.Errorf("%s example names database %q; the tests' is 15", s.Env, db)
			}
		}
	}
}

// TestScriptAndComposeExportTheExamples: the export lines that
// scripts/test-services.sh prints, and those compose.yaml's comment
// shows, are the services' example values.
func TestScriptAndComposeExportTheExamples(t *testing.T) {
	for _, file := range []string{"scripts/test-services.sh", "compose.yaml"} {
		src, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range Services {
			if want := "export " + s.Env + `="` + s.Example + `"`; !strings.Contains(string(src), want) {
				t.Errorf("%s does not say %s", file, want)
			}
		}
	}
}

// TestOwnKeys: a test's Redis URL gets a key_prefix of its own, after the
// URL's other parameters, made only of characters a key prefix allows.
func TestOwnKeys(t *testing.T) {
	a, b := OwnKeys(t, "redis://h:6379/15"), OwnKeys(t, "redis://h:6379/15?dial_timeout=1s")
	if !strings.HasPrefix(a, "redis://h:6379/15?key_prefix=TestOwnKeys-") {
		t.Errorf("OwnKeys: %s", a)
	}
	if !strings.HasPrefix(b, "redis://h:6379/15?dial_timeout=1s&key_prefix=TestOwnKeys-") {
		t.Errorf("OwnKeys after a parameter: %s", b)
	}
	t.Run("a/b c", func(t *testing.T) {
		if got := OwnKeys(t, "redis://h/0"); !strings.HasPrefix(got, "redis://h/0?key_prefix=TestOwnKeys-a-b-c-") {
			t.Errorf("OwnKeys of a subtest: %s", got)
		}
	})
}
