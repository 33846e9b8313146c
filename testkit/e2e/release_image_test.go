package e2e

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// runtimeInstructions are the instructions of the Dockerfile's runtime
// stage that a release image must repeat as they are: what the image is
// labelled, who it runs as, where, and what it runs.
var runtimeInstructions = []string{"LABEL", "USER", "WORKDIR", "EXPOSE", "ENTRYPOINT", "CMD"}

// TestReleaseDockerfileMatchesRuntimeStage: Dockerfile.release is the
// Dockerfile's runtime stage with the binary taken from GoReleaser's
// context instead of compiled: the same base and instructions, no RUN, and
// the COPY from where dockers_v2 puts each platform's binary
// (<os>/<arch>/<binary>, i.e. $TARGETPLATFORM/mcpdecl) to the path the
// entrypoint runs.
func TestReleaseDockerfileMatchesRuntimeStage(t *testing.T) {
	source := parseDockerfile(t, repoPath(t, "Dockerfile"))
	release := parseDockerfile(t, repoPath(t, "Dockerfile.release"))
	if len(release) != 1 {
		t.Fatalf("Dockerfile.release has %d stages; want one, the runtime stage alone (nothing is built in it)", len(release))
	}
	want, got := source[len(source)-1], release[0]
	if got.from != want.from {
		t.Errorf("Dockerfile.release is FROM %s; the Dockerfile's runtime stage is FROM %s", got.from, want.from)
	}
	for _, kind := range runtimeInstructions {
		if g, w := got.instruction(kind), want.instruction(kind); g != w {
			t.Errorf("%s: Dockerfile.release has %q, the Dockerfile %q", kind, g, w)
		}
	}
	if run := got.instruction("RUN"); run != "" {
		t.Errorf("Dockerfile.release runs %q; it must only copy the release's binary", run)
	}
	copyArgs := strings.Fields(got.instruction("COPY"))
	wantDest := strings.Fields(want.instruction("COPY"))
	if len(copyArgs) != 2 || copyArgs[0] != "$TARGETPLATFORM/mcpdecl" || copyArgs[1] != wantDest[len(wantDest)-1] {
		t.Errorf("Dockerfile.release copies %q; want $TARGETPLATFORM/mcpdecl %s", copyArgs, wantDest[len(wantDest)-1])
	}
	if !slices.Contains(got.lines, "ARG TARGETPLATFORM") {
		t.Error("Dockerfile.release does not declare ARG TARGETPLATFORM, which its COPY needs")
	}
}

// platformName is an OS/architecture pair such as linux/arm64.
var platformName = regexp.MustCompile(`\b[a-z]+/[a-z0-9]+\b`)

// goreleaserConfig is the part of .goreleaser.yaml the image depends on.
type goreleaserConfig struct {
	Builds []struct {
		ID      string   `yaml:"id"`
		Binary  string   `yaml:"binary"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	DockersV2 []struct {
		IDs        []string          `yaml:"ids"`
		Dockerfile string            `yaml:"dockerfile"`
		Platforms  []string          `yaml:"platforms"`
		BuildArgs  map[string]string `yaml:"build_args"`
	} `yaml:"dockers_v2"`
}

// TestGoreleaserImageUsesTheBuild: .goreleaser.yaml's image is built from
// Dockerfile.release with the binaries of its one build, for platforms that
// build makes, and labelled with the version and commit the build stamps
// into the binary (the same templates as its ldflags).
func TestGoreleaserImageUsesTheBuild(t *testing.T) {
	raw, err := os.ReadFile(repoPath(t, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if len(cfg.Builds) != 1 || len(cfg.DockersV2) != 1 {
		t.Fatalf(".goreleaser.yaml has %d builds and %d dockers_v2 images; want one of each", len(cfg.Builds), len(cfg.DockersV2))
	}
	build, image := cfg.Builds[0], cfg.DockersV2[0]
	if image.Dockerfile != "Dockerfile.release" {
		t.Errorf("the image is built from %q, want Dockerfile.release", image.Dockerfile)
	}
	if !slices.Equal(image.IDs, []string{build.ID}) || build.Binary != "mcpdecl" {
		t.Errorf("the image takes the binaries of builds %q; want exactly build %q, whose binary (%q) Dockerfile.release copies as mcpdecl", image.IDs, build.ID, build.Binary)
	}
	if !slices.Contains(image.Platforms, "linux/amd64") {
		t.Errorf("the image's platforms %q lack linux/amd64", image.Platforms)
	}
	for _, entry := range image.Platforms {
		// An entry may be a template that yields the platform or nothing.
		p := platformName.FindString(entry)
		if p == "" {
			t.Errorf("the image's platform entry %q names no platform", entry)
			continue
		}
		goos, goarch, _ := strings.Cut(p, "/")
		if !slices.Contains(build.Goos, goos) || !slices.Contains(build.Goarch, goarch) {
			t.Errorf("the image is built for %s, which the build (%q × %q) does not make", p, build.Goos, build.Goarch)
		}
	}
	ldflags := strings.Join(build.Ldflags, " ")
	for arg, variable := range map[string]string{"VERSION": "main.version", "COMMIT": "main.commit"} {
		tmpl := image.BuildArgs[arg]
		if tmpl == "" || !strings.Contains(ldflags, "-X "+variable+"="+tmpl) {
			t.Errorf("build argument %s is %q; want the template the build stamps into %s (ldflags %q)", arg, tmpl, variable, ldflags)
		}
	}
}
