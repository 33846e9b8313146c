package e2e

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// base64Run is a run of base64 long enough to hold a 32-byte key.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{40,}={0,2}`)

// TestHostileKubernetesShipsNoKey: the Kubernetes manifests hold no
// signing key nor any Secret value, so that `kubectl apply -k` as written
// cannot run with a key anyone can read. The keys come from a secret
// generator reading a file git ignores, made by the one command the
// kustomization documents, which serve accepts; without that file
// kustomize refuses to build.
func TestHostileKubernetesShipsNoKey(t *testing.T) {
	dir := repoPath(t, "deploy/kubernetes")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	gens := secretGenerators(t)
	generated := map[string]bool{}
	for _, keys := range gens {
		for _, file := range keys {
			generated[file] = true
		}
	}
	for _, e := range entries {
		name := e.Name()
		if generated[name] {
			continue // made on the applying machine; checked to be ignored below
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, run := range base64Run.FindAllString(text, -1) {
			if raw, err := base64.StdEncoding.DecodeString(run); err == nil && len(raw) >= 16 {
				t.Errorf("%s holds base64 of %d bytes (%.12s…): a key in the repository is public", name, len(raw), run)
			}
		}
		for _, word := range []string{"replace-me", "changeme", "BEGIN PRIVATE KEY", "state.keys: |"} {
			if strings.Contains(text, word) {
				t.Errorf("%s holds %q", name, word)
			}
		}
		if !strings.HasSuffix(name, ".yaml") {
			continue
		}
		decodeYAML(t, filepath.Join(dir, name), func(doc map[string]any) {
			if doc["kind"] == "Secret" {
				t.Errorf("%s holds a Secret (%v): make it with a secretGenerator from an ignored file", name, dig(doc, "metadata", "name"))
			}
		})
	}

	// The state keys and the env() values are generated, from files git
	// ignores and the repository does not hold.
	keyFile := gens["mcpdecl-state-keys"]["state.keys"]
	if keyFile == "" {
		t.Fatalf("no secretGenerator makes mcpdecl-state-keys with state.keys: %v", gens)
	}
	if gens["mcpdecl-env"][""] == "" {
		t.Errorf("no secretGenerator makes mcpdecl-env from an env file: %v", gens)
	}
	for _, keys := range gens {
		for _, file := range keys {
			if out, err := exec.Command("git", "-C", dir, "check-ignore", "-q", file).CombinedOutput(); err != nil {
				t.Errorf("git does not ignore deploy/kubernetes/%s, which holds a secret: %v %s", file, err, out)
			}
			if out, _ := exec.Command("git", "-C", dir, "ls-files", file).Output(); len(out) > 0 {
				t.Errorf("deploy/kubernetes/%s is committed", file)
			}
		}
	}

	// The documented command makes a key serve accepts.
	root := t.TempDir()
	secrets := generatedSecrets(t, root, map[string]string{"CATALOGUE_TOKEN": "t"})
	keys := filepath.Join(root, "state.keys")
	if err := os.WriteFile(keys, []byte(secrets["mcpdecl-state-keys"]["state.keys"]), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(root, "c.hcl")
	if err := os.WriteFile(config, []byte("server {\n  name = \"k\"\n  version = \"1\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	serveBinary(t, []string{"--state-key-file", keys, config}, nil, logs, true)

	// kustomize itself, where kubectl is installed: it fails without the
	// key file and builds with it.
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Log("kubectl is not installed; kustomize's build is not run")
		return
	}
	copyDir := filepath.Join(t.TempDir(), "kubernetes")
	if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	for _, keys := range gens {
		for _, file := range keys {
			os.Remove(filepath.Join(copyDir, file))
		}
	}
	if out, err := exec.Command("kubectl", "kustomize", copyDir).CombinedOutput(); err == nil {
		t.Errorf("kustomize built the manifests without the key file:\n%s", out)
	}
	if err := os.CopyFS(copyDir, os.DirFS(filepath.Join(root, "deploy", "kubernetes"))); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("kubectl", "kustomize", copyDir).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "secretName: mcpdecl-state-keys-") {
		t.Errorf("kustomize with the generated files: %v\n%s", err, out)
	}
}
