package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"
)

// manifests are the documents of deploy/kubernetes, by kind and name.
type manifests map[string]map[string]any

func (m manifests) get(t *testing.T, kind, name string) map[string]any {
	t.Helper()
	doc := m[kind+"/"+name]
	if doc == nil {
		t.Fatalf("deploy/kubernetes has no %s %q", kind, name)
	}
	return doc
}

func loadManifests(t *testing.T) manifests {
	t.Helper()
	dir := repoPath(t, "deploy/kubernetes")
	kust := loadKustomization(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	var listed []string
	for _, r := range kust["resources"].([]any) {
		listed = append(listed, r.(string))
	}
	for _, f := range files {
		if base := filepath.Base(f); base != "kustomization.yaml" && !slices.Contains(listed, base) {
			t.Errorf("kustomization.yaml does not list %s", base)
		}
	}
	out := manifests{}
	for _, name := range listed {
		decodeYAML(t, filepath.Join(dir, name), func(doc map[string]any) {
			meta := doc["metadata"].(map[string]any)
			out[doc["kind"].(string)+"/"+meta["name"].(string)] = doc
		})
	}
	return out
}

func loadKustomization(t *testing.T) map[string]any {
	t.Helper()
	kust := map[string]any{}
	decodeYAML(t, repoPath(t, "deploy/kubernetes/kustomization.yaml"), func(doc map[string]any) { kust = doc })
	return kust
}

// secretGenerators are the Secrets kustomize makes, by name: each
// key of the Secret and the file (relative to deploy/kubernetes) it is
// read from; an env file ("envs") is listed under the key "".
func secretGenerators(t *testing.T) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	gens, _ := loadKustomization(t)["secretGenerator"].([]any)
	for _, g := range gens {
		name, _ := dig(g, "name").(string)
		out[name] = map[string]string{}
		files, _ := dig(g, "files").([]any)
		for _, f := range files {
			key, file, ok := strings.Cut(f.(string), "=")
			if !ok {
				file = key
				key = filepath.Base(file)
			}
			out[name][key] = file
		}
		envs, _ := dig(g, "envs").([]any)
		for _, e := range envs {
			out[name][""] = e.(string)
		}
	}
	return out
}

// generatedSecrets makes the files the secret generators read the way
// kustomization.yaml documents (its key command is run as written, under
// root), and returns each Secret's data as kustomize would.
func generatedSecrets(t *testing.T, root string, env map[string]string) map[string]map[string]string {
	t.Helper()
	gens := secretGenerators(t)
	kdir := filepath.Join(root, "deploy", "kubernetes")
	if err := os.MkdirAll(kdir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", keyCommand(t))
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the documented key command: %v\n%s", err, out)
	}
	var lines []string
	for k, v := range env {
		lines = append(lines, k+"="+v)
	}
	data := map[string]map[string]string{}
	for name, keys := range gens {
		data[name] = map[string]string{}
		for key, file := range keys {
			path := filepath.Join(kdir, file)
			if key == "" {
				writeTestFile(t, path, strings.Join(lines, "\n")+"\n")
				for k, v := range env {
					data[name][k] = v
				}
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("secret %s reads %s, which the documented command did not make: %v", name, file, err)
			}
			data[name][key] = string(b)
		}
	}
	return data
}

// keyCommand is the command kustomization.yaml documents for the key.
func keyCommand(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(repoPath(t, "deploy/kubernetes/kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if cmd := strings.TrimSpace(strings.TrimPrefix(line, "#")); strings.HasPrefix(cmd, "head -c 32 /dev/urandom | base64 > ") {
			return cmd
		}
	}
	t.Fatal("kustomization.yaml documents no key command (head -c 32 /dev/urandom | base64 > ...)")
	return ""
}

func decodeYAML(t *testing.T, path string, each func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		each(doc)
	}
}

// dig walks nested maps and lists: dig(doc, "spec", "template", 0, ...).
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func argValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// TestKubernetesManifests checks the example manifests against each other
// and against mcpdecl: the paths the container reads are the paths the
// volumes mount, the probes and ports agree, the pod runs as non-root
// with limits; then it runs the container's command line on loopback with
// the Secret's and the Deployment's environment, the ConfigMap's
// configuration and the Secret's key file, and calls a tool through it.
func TestKubernetesManifests(t *testing.T) {
	m := loadManifests(t)
	dep := m.get(t, "Deployment", "mcpdecl")
	pod := dig(dep, "spec", "template", "spec")
	c := dig(pod, "containers", 0).(map[string]any)
	var args []string
	for _, a := range c["args"].([]any) {
		args = append(args, a.(string))
	}
	if len(args) < 3 || args[0] != "serve" || args[1] != "--http" || args[2] != "0.0.0.0:8080" {
		t.Fatalf("container args %q: want serve --http 0.0.0.0:8080 ...", args)
	}
	if port := dig(c, "ports", 0, "containerPort"); port != 8080 || dig(c, "ports", 0, "name") != "mcp" {
		t.Errorf("container port %v, want 8080 named mcp", port)
	}
	for probe, path := range map[string]string{"livenessProbe": "/healthz", "readinessProbe": "/readyz"} {
		if dig(c, probe, "httpGet", "path") != path || dig(c, probe, "httpGet", "port") != "mcp" {
			t.Errorf("%s: %v, want GET %s on port mcp", probe, c[probe], path)
		}
	}
	// /readyz may take its whole 2 s bound pinging the databases.
	if timeout, _ := dig(c, "readinessProbe", "timeoutSeconds").(int); timeout <= 2 {
		t.Errorf("readinessProbe.timeoutSeconds %v: want more than the 2 s /readyz may take", dig(c, "readinessProbe", "timeoutSeconds"))
	}
	for _, k := range []string{"cpu", "memory"} {
		if dig(c, "resources", "limits", k) == nil || dig(c, "resources", "requests", k) == nil {
			t.Errorf("no %s request and limit", k)
		}
	}
	if dig(pod, "securityContext", "runAsNonRoot") != true || dig(c, "securityContext", "readOnlyRootFilesystem") != true {
		t.Error("the pod must run as non-root on a read-only root file system")
	}
	svc := m.get(t, "Service", "mcpdecl")
	if dig(svc, "spec", "ports", 0, "targetPort") != "mcp" || dig(svc, "spec", "selector", "app.kubernetes.io/name") != dig(dep, "spec", "template", "metadata", "labels", "app.kubernetes.io/name") {
		t.Error("the Service does not select the pods' mcp port")
	}
	if hosts := strings.Join(args, " "); !strings.Contains(hosts, "--allowed-host mcpdecl ") {
		t.Error("the Service name is not an allowed Host")
	}

	// Where the container reads its files, and what the volumes put there.
	mounts := map[string]string{} // mount path → volume source
	for _, vm := range c["volumeMounts"].([]any) {
		name := dig(vm, "name")
		for _, v := range dig(pod, "volumes").([]any) {
			if dig(v, "name") == name {
				src := "emptyDir"
				if cm := dig(v, "configMap", "name"); cm != nil {
					src = "ConfigMap/" + cm.(string)
				} else if s := dig(v, "secret", "secretName"); s != nil {
					src = "Secret/" + s.(string)
				}
				mounts[dig(vm, "mountPath").(string)] = src
			}
		}
	}
	config, keyFile := args[len(args)-1], argValue(args, "--state-key-file")
	root := t.TempDir()
	secrets := generatedSecrets(t, filepath.Join(root, "repo"), map[string]string{"CATALOGUE_TOKEN": "catalogue-token-for-the-test"})
	files := map[string]string{} // container path → content
	for path, want := range map[string]string{config: "ConfigMap/mcpdecl-config", keyFile: "Secret/mcpdecl-state-keys"} {
		src := mounts[filepath.Dir(path)]
		if src != want {
			t.Fatalf("%s is read from %q, which mounts %q; want %s", path, filepath.Dir(path), src, want)
		}
		kind, name, _ := strings.Cut(src, "/")
		if kind == "Secret" {
			content, ok := secrets[name][filepath.Base(path)]
			if !ok {
				t.Fatalf("no secret generator makes %s with the key %s", name, filepath.Base(path))
			}
			files[path] = content
			continue
		}
		files[path] = dig(m.get(t, kind, name), "data", filepath.Base(path)).(string)
	}

	// The environment: the Secret named by envFrom, then env values.
	env := map[string]string{}
	secretName := dig(c, "envFrom", 0, "secretRef", "name").(string)
	if secrets[secretName] == nil {
		t.Fatalf("envFrom names %s, which no secret generator makes", secretName)
	}
	for k, v := range secrets[secretName] {
		env[k] = v
	}
	var seen struct {
		sync.Mutex
		auth []string
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Lock()
		seen.auth = append(seen.auth, r.Header.Get("Authorization"))
		seen.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"isbn":"9780000000001","title":"Small Rivers"}]`)
	}))
	defer api.Close()
	for _, e := range c["env"].([]any) {
		env[dig(e, "name").(string)] = dig(e, "value").(string)
	}
	if !strings.HasPrefix(env["MCPDECL_VAR_base_url"], "http://") {
		t.Fatalf("MCPDECL_VAR_base_url = %q", env["MCPDECL_VAR_base_url"])
	}
	env["MCPDECL_VAR_base_url"] = api.URL // the catalogue, here on loopback

	// The container's command line, its paths moved into a temporary root.
	local := func(p string) string { return filepath.Join(root, p) }
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(local(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(local(p), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rest := slices.Clone(args[3:])
	for i, a := range rest {
		if files[a] != "" {
			rest[i] = local(a)
		}
	}
	logs := &syncBuffer{}
	_, endpoint := serveBinary(t, rest, env, logs, true)
	base := strings.TrimSuffix(endpoint, "/mcp")
	for _, probe := range []string{"/healthz", "/readyz"} {
		res, err := http.Get(base + probe)
		if err != nil || res.StatusCode != 200 {
			t.Errorf("GET %s: %v %v\n%s", probe, res, err, logs)
			continue
		}
		res.Body.Close()
	}
	cl := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint}, "2025-11-25")
	res, err := cl.callTool(testCtx(t), "search", map[string]any{"query": "rivers"})
	if err != nil || res.IsError || !strings.Contains(res.Text, "Small Rivers") {
		t.Fatalf("search through the manifests' command line: %+v, %v\n%s", res, err, logs)
	}
	seen.Lock()
	defer seen.Unlock()
	if len(seen.auth) != 1 || seen.auth[0] != "Bearer "+env["CATALOGUE_TOKEN"] {
		t.Errorf("the catalogue got Authorization %q, want the Secret's token", seen.auth)
	}
}

// TestKubernetesAsREADMESays: README's Kubernetes snippet reads the keys
// where the Deployment mounts them, and the Deployment runs the image
// README's docker build makes, under the name README tells how to change.
func TestKubernetesAsREADMESays(t *testing.T) {
	readme, err := os.ReadFile(repoPath(t, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := loadManifests(t)
	c := dig(m.get(t, "Deployment", "mcpdecl"), "spec", "template", "spec", "containers", 0).(map[string]any)
	var args []string
	for _, a := range c["args"].([]any) {
		args = append(args, a.(string))
	}
	keyFile := argValue(args, "--state-key-file")
	for _, want := range []string{
		"--state-key-file " + keyFile,
		"mount it at " + filepath.Dir(keyFile) + " ",
		"kubectl create secret generic mcpdecl-state-keys",
	} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md does not say %q, as the Deployment does", want)
		}
	}
	image, _ := c["image"].(string)
	name, _, _ := strings.Cut(image, ":")
	if !strings.Contains(string(readme), "docker build -t "+name+" .") && !regexp.MustCompile(`docker build [^\n]*-t `+regexp.QuoteMeta(name)+` \.`).Match(readme) {
		t.Errorf("the Deployment runs %q, which no docker build of README makes", image)
	}
	images, _ := loadKustomization(t)["images"].([]any)
	if len(images) == 0 || dig(images[0], "name") != name {
		t.Errorf("kustomization.yaml has no images entry for %q, so `kustomize edit set image` has nothing to rename", name)
	}
	if !strings.Contains(string(readme), "kustomize edit set image "+name+"=") {
		t.Errorf("README.md does not say how to name the registry copy of %q", name)
	}
}
