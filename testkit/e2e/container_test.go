package e2e

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// dockerStage is one FROM ... of a Dockerfile with its instructions.
type dockerStage struct {
	from, name string
	lines      []string // instructions after FROM, continuation lines joined
}

// parseDockerfile splits a Dockerfile into its stages.
func parseDockerfile(t *testing.T, path string) []*dockerStage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stages []*dockerStage
	var pending string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			pending += cont + " "
			continue
		}
		line, pending = pending+line, ""
		fields := strings.Fields(line)
		if strings.EqualFold(fields[0], "FROM") {
			s := &dockerStage{from: fields[1]}
			if len(fields) == 4 && strings.EqualFold(fields[2], "AS") {
				s.name = fields[3]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("%s: %q before the first FROM", path, line)
		}
		stages[len(stages)-1].lines = append(stages[len(stages)-1].lines, line)
	}
	return stages
}

// instruction returns the arguments of a stage's last instruction of the
// kind ("" when it has none).
func (s *dockerStage) instruction(kind string) string {
	out := ""
	for _, l := range s.lines {
		if k, rest, _ := strings.Cut(l, " "); strings.EqualFold(k, kind) {
			out = strings.TrimSpace(rest)
		}
	}
	return out
}

// TestDockerfileBuildsLikeMake: without a Docker daemon, the Dockerfile's
// build stage runs `make build` with a Go of go.mod's version, and the
// image runs the binary that target writes, where the Makefile writes it
// (static: CGO off, -trimpath).
func TestDockerfileBuildsLikeMake(t *testing.T) {
	stages := parseDockerfile(t, repoPath(t, "Dockerfile"))
	if len(stages) != 2 || stages[0].name != "build" {
		t.Fatalf("want a build stage named build and a runtime stage, got %d stages", len(stages))
	}
	build, run := stages[0], stages[1]

	gomod, err := os.ReadFile(repoPath(t, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goVersion == nil || !strings.HasPrefix(build.from, "golang:"+string(goVersion[1])) {
		t.Errorf("the build stage is FROM %s; go.mod asks for Go %s", build.from, goVersion[1])
	}
	if cmd := build.instruction("RUN"); !strings.HasPrefix(cmd, "make build ") {
		t.Errorf("the build stage's last RUN is %q; want make build, so the image is built as `make build` builds", cmd)
	}

	makefile, err := os.ReadFile(repoPath(t, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	target := regexp.MustCompile(`(?m)^build:\s*;\s*(.+)$`).FindSubmatch(makefile)
	if target == nil {
		t.Fatal("the Makefile has no one-line build target")
	}
	recipe := string(target[1])
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "./cmd/mcpdecl"} {
		if !strings.Contains(recipe, want) {
			t.Errorf("make build (%s) lacks %s", recipe, want)
		}
	}
	out := regexp.MustCompile(`-o (\S+)`).FindStringSubmatch(recipe)
	if out == nil {
		t.Fatalf("make build (%s) names no output", recipe)
	}
	built := filepath.Join(build.instruction("WORKDIR"), out[1])
	copyFrom := strings.Fields(run.instruction("COPY"))
	if len(copyFrom) != 3 || copyFrom[0] != "--from=build" || copyFrom[1] != built {
		t.Fatalf("the runtime stage copies %q; want --from=build %s (make build's output)", copyFrom, built)
	}
	if entry := run.instruction("ENTRYPOINT"); entry != `["`+copyFrom[2]+`"]` {
		t.Errorf("ENTRYPOINT %s does not run the copied binary %s", entry, copyFrom[2])
	}
	if user := run.instruction("USER"); user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Errorf("the image runs as %q; want a non-root user", user)
	}
}

// containerConfig needs nothing the distroless image lacks: SQLite is
// pure Go, and an in-memory database needs no file.
const containerConfig = `
server {
  name = "container"
}
backend "sql" "mem" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
tool "greet" {
  description = "Greets from the database."
  sql "mem" {
    query = "SELECT 'hello from the image' AS greeting"
  }
}
`

// TestContainerImage builds the Dockerfile's image and runs it as its
// non-root user: `version` and the version label show the VERSION build
// argument, and through a port published on loopback /healthz answers and
// a real client's tools/call reads the mounted configuration. It needs a Docker daemon and
// the Dockerfile's base images, pulled from their registries or, where
// those are out of reach, the local stand-ins of
// scripts/container-bases.sh. .ci/run starts a daemon and makes the
// stand-ins; without a daemon the test skips, and fails under CI.
func TestContainerImage(t *testing.T) {
	needDocker(t)
	image := fmt.Sprintf("mcpdecl-e2e:%d", rand.Uint32())
	buildImage(t, image)

	out, err := exec.Command("docker", "run", "--rm", image, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "mcpdecl e2e ") {
		t.Errorf("docker run %s version: %v\n%s%s\nwant mcpdecl e2e (the VERSION build argument)", image, err, out, stderrOf(err))
	}
	if user, _ := exec.Command("docker", "image", "inspect", "-f", "{{.Config.User}}", image).Output(); strings.TrimSpace(string(user)) != "65532:65532" {
		t.Errorf("the image's user is %q, want 65532:65532 (distroless nonroot)", strings.TrimSpace(string(user)))
	}
	for label, want := range map[string]string{"version": "e2e", "source": "https://github.com/mcpdecl/mcpdecl"} {
		format := fmt.Sprintf(`{{index .Config.Labels "org.opencontainers.image.%s"}}`, label)
		if got, _ := exec.Command("docker", "image", "inspect", "-f", format, image).Output(); strings.TrimSpace(string(got)) != want {
			t.Errorf("the image's %s label is %q, want %q", label, strings.TrimSpace(string(got)), want)
		}
	}

	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "config.hcl"), containerConfig)
	if err := os.Chmod(dir, 0o755); err != nil { // readable by the image's user
		t.Fatal(err)
	}
	out, err = exec.Command("docker", "run", "-d", "--rm", "-p", "127.0.0.1::8080", "-v", dir+":/etc/mcpdecl:ro",
		image, "serve", "--http", "0.0.0.0:8080", "--allowed-host", "127.0.0.1", "/etc/mcpdecl/config.hcl").Output()
	if err != nil {
		t.Fatalf("docker run: %v\n%s", err, stderrOf(err))
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", id).Run() })
	port, err := exec.Command("docker", "port", id, "8080/tcp").Output()
	if err != nil {
		t.Fatalf("docker port: %v\n%s", err, stderrOf(err))
	}
	addr := strings.TrimSpace(strings.Split(string(port), "\n")[0])
	base := "http://" + addr

	var status int
	for range 150 {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			status = resp.StatusCode
			resp.Body.Close()
			if status == http.StatusOK {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if status != http.StatusOK {
		logs, _ := exec.Command("docker", "logs", id).CombinedOutput()
		t.Fatalf("GET /healthz of the container: %d\n%s", status, logs)
	}
	cl := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: base + "/mcp"}, "2025-11-25")
	res, err := cl.callTool(testCtx(t), "greet", nil)
	if err != nil || res.IsError || !strings.Contains(res.Text, "hello from the image") {
		logs, _ := exec.Command("docker", "logs", id).CombinedOutput()
		t.Fatalf("greet in the container: %+v, %v\n%s", res, err, logs)
	}

	t.Run("README", func(t *testing.T) { runREADMEContainer(t, image) })
}

// runREADMEContainer runs README's `docker run` command as written, but
// detached, kept until the test removes it, published on a loopback port
// of the system's choosing and with the test's image, and calls a tool of
// the example it serves.
func runREADMEContainer(t *testing.T, image string) {
	// Kept after it ends (no --rm), so that its log can be shown.
	args := slices.DeleteFunc(readmeDockerRun(t), func(a string) bool { return a == "--rm" })
	for i, a := range args {
		switch {
		case a == "-p" && i+1 < len(args):
			args[i+1] = "127.0.0.1::8080"
		case strings.Contains(a, "$PWD"):
			args[i] = strings.ReplaceAll(a, "$PWD", repoPath(t, "."))
		case a == "mcpdecl" && i > 0 && args[i-1] != "-p":
			args[i] = image
		}
	}
	out, err := exec.Command("docker", append([]string{"run", "-d"}, args[2:]...)...).Output()
	if err != nil {
		t.Fatalf("README's docker run %q: %v\n%s", args, err, stderrOf(err))
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", id).Run() })
	port, err := exec.Command("docker", "port", id, "8080/tcp").Output()
	if err != nil {
		t.Fatalf("docker port: %v\n%s", err, stderrOf(err))
	}
	_, p, _ := strings.Cut(strings.TrimSpace(strings.Split(string(port), "\n")[0]), ":")
	base := "http://localhost:" + p // README allows the host name localhost
	status := 0
	for range 150 {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			status = resp.StatusCode
			resp.Body.Close()
			if status == http.StatusOK {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if status != http.StatusOK {
		logs, _ := exec.Command("docker", "logs", id).CombinedOutput()
		t.Fatalf("README's container did not serve (GET /healthz: %d):\n%s", status, logs)
	}
	cl := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: base + "/mcp"}, "2025-11-25")
	res, err := cl.callTool(testCtx(t), "open_orders", map[string]any{"status": "open"})
	if err != nil || res.IsError || res.Text == "" {
		logs, _ := exec.Command("docker", "logs", id).CombinedOutput()
		t.Fatalf("open_orders in README's container: %+v, %v\n%s", res, err, logs)
	}
}

// readmeDockerRun is README's `docker run` command line, its words split
// as the shell would split them (double quotes kept together).
func readmeDockerRun(t *testing.T) []string {
	t.Helper()
	text, err := os.ReadFile(repoPath(t, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(text), "\ndocker run ")
	if !ok {
		t.Fatal("README.md shows no docker run command")
	}
	line := "docker run "
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		cont := strings.HasSuffix(l, "\\")
		line += strings.TrimSuffix(l, "\\") + " "
		if !cont {
			break
		}
	}
	var words []string
	for i, part := range strings.Split(line, `"`) {
		if i%2 == 1 {
			words = append(words, part)
			continue
		}
		words = append(words, strings.Fields(part)...)
	}
	return words
}

// needDocker skips the test, or fails it under CI (whose .ci/run starts a
// daemon with scripts/dockerd.sh), when no Docker daemon answers.
func needDocker(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("docker"); err != nil {
		why = "no docker command"
	} else if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		why = fmt.Sprintf("docker info: %v: %s", err, firstLine(out))
	}
	if why == "" {
		return
	}
	testenv.Require(t, "a Docker daemon ("+why+")", "start one (scripts/dockerd.sh installs and starts Debian's); the Dockerfile is still checked by TestDockerfileBuildsLikeMake")
}

// buildImage builds the repository's Dockerfile as image with VERSION=e2e.
// The build cache is kept when the image is removed (rmi --no-prune), so
// a build of an unchanged tree takes seconds, not a cold compile.
func buildImage(t *testing.T, image string) {
	t.Helper()
	var missing []string
	for _, s := range parseDockerfile(t, repoPath(t, "Dockerfile")) {
		if exec.Command("docker", "image", "inspect", s.from).Run() != nil {
			missing = append(missing, s.from)
		}
	}
	out, err := exec.Command("docker", "build", "--build-arg", "VERSION=e2e", "-t", image, repoPath(t, ".")).CombinedOutput()
	if err != nil {
		hint := ""
		if len(missing) > 0 {
			hint = fmt.Sprintf("\nthe base images %s were not on the daemon before the build; where their registries are out of reach, make local stand-ins with scripts/container-bases.sh", strings.Join(missing, ", "))
		}
		t.Fatalf("docker build: %v\n%s%s", err, out, hint)
	}
	t.Cleanup(func() { exec.Command("docker", "rmi", "--no-prune", "-f", image).Run() })
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
