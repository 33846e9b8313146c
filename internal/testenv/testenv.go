// Package testenv says, in one line and the same words everywhere, what a
// test needs that this machine does not give it, and how to give it: the
// services the tests reach through MCPDECL_TEST_* variables (PostgreSQL,
// MariaDB, Redis), the programs they run (nginx, redis-server, ...) and
// the tools that scripts install.
//
// A test that finds what it needs goes on; otherwise it is skipped with a
// message of the form
//
//	needs PostgreSQL: set MCPDECL_TEST_POSTGRES_DSN=postgres://... (`docker compose up -d` starts it; see README "Running the tests")
//
// The services and their values are the ones compose.yaml at the root of
// the repository starts, and README's "Running the tests" lists every
// variable named here (tests hold both to this package).
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Section is the README section that says how to give the tests what they
// need.
const Section = `README "Running the tests"`

// Service is a server the tests reach through an environment variable.
type Service struct {
	Name    string // as people call it: "PostgreSQL"
	Env     string // the variable the tests read
	Example string // the value that reaches the server compose.yaml starts
	Compose string // the compose.yaml service that starts it
}

// The services of compose.yaml.
var (
	Postgres = Service{
		Name:    "PostgreSQL",
		Env:     "MCPDECL_TEST_POSTGRES_DSN",
		Example: "postgres://postgres@127.0.0.1:5432/mcpdecl_test?sslmode=disable",
		Compose: "postgres",
	}
	MySQL = Service{
		Name:    "MariaDB (or MySQL)",
		Env:     "MCPDECL_TEST_MYSQL_DSN",
		Example: "root@tcp(127.0.0.1:3306)/mcpdecl_test",
		Compose: "mariadb",
	}
	Redis = Service{
		Name:    "Redis",
		Env:     "MCPDECL_TEST_REDIS_URL",
		Example: "redis://127.0.0.1:6379/15",
		Compose: "redis",
	}
)

// Services are all the services, in the order README lists them.
var Services = []Service{Postgres, MySQL, Redis}

// Message is the one line that says the service is missing and how to
// give it.
func (s Service) Message() string {
	return fmt.Sprintf("needs %s: set %s=%s (`docker compose up -d` or scripts/test-services.sh starts it; see %s)",
		s.Name, s.Env, s.Example, Section)
}

// Value is the service's variable, or "" when it is unset.
func (s Service) Value() string { return os.Getenv(s.Env) }

// Need returns the service's variable, or skips t saying how to set it.
func (s Service) Need(t testing.TB) string {
	t.Helper()
	v := s.Value()
	if v == "" {
		t.Skip(s.Message())
	}
	return v
}

// Optional returns the service's variable; when it is unset, the part of
// t that needs the service is left out, and t's log says so in one line.
func (s Service) Optional(t testing.TB, part string) string {
	t.Helper()
	v := s.Value()
	if v == "" {
		t.Log(part + " is not tested; " + s.Message())
	}
	return v
}

// ByEnv is the service read from the variable env. A name that is not
// one of Services is a mistake in the test: it panics.
func ByEnv(env string) Service {
	for _, s := range Services {
		if s.Env == env {
			return s
		}
	}
	panic("testenv: no service is read from " + env)
}

// Need returns the variable env of one of Services, or skips t.
func Need(t testing.TB, env string) string {
	t.Helper()
	return ByEnv(env).Need(t)
}

// Line is the one-line message "needs what: how". Line breaks in either
// become spaces, so a skip reason is always one line.
func Line(what, how string) string {
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	return "needs " + flat(what) + ": " + flat(how)
}

// Command returns the path of the program name on PATH, or skips t saying
// how to install it (how: "apt-get install nginx-light").
func Command(t testing.TB, name, how string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skip(Line(name+" on PATH", how))
	}
	return p
}

// Skip skips t: it needs what, and how says how to give it.
func Skip(t testing.TB, what, how string) {
	t.Helper()
	t.Skip(Line(what, how))
}

// Require skips t like Skip, except under CI (CI set), whose .ci/run
// installs everything: there t fails.
func Require(t testing.TB, what, how string) {
	t.Helper()
	msg := Line(what, how)
	if os.Getenv("CI") != "" {
		t.Fatal(msg + " (CI must install it: .ci/run)")
	}
	t.Skip(msg)
}

// OwnKeys returns the Redis URL url with a key_prefix of t's own, so
// that servers started by t keep their tasks apart from those of every
// other test sharing the database (packages run at the same time).
func OwnKeys(t testing.TB, url string) string {
	t.Helper()
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, t.Name())
	if len(name) > 40 {
		name = name[:40]
	}
	return fmt.Sprintf("%s%skey_prefix=%s-%d", url, sep, name, time.Now().UnixNano())
}
