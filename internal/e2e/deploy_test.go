package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
	kust := map[string]any{}
	decodeYAML(t, filepath.Join(dir, "kustomization.yaml"), func(doc map[string]any) { kust = doc })
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
	files := map[string]string{} // container path → content
	for path, want := range map[string]string{config: "ConfigMap/mcpdecl-config", keyFile: "Secret/mcpdecl-state-keys"} {
		src := mounts[filepath.Dir(path)]
		if src != want {
			t.Fatalf("%s is read from %q, which mounts %q; want %s", path, filepath.Dir(path), src, want)
		}
		kind, name, _ := strings.Cut(src, "/")
		field := "data"
		if kind == "Secret" {
			field = "stringData"
		}
		files[path] = dig(m.get(t, kind, name), field, filepath.Base(path)).(string)
	}

	// The environment: the Secret named by envFrom, then env values.
	env := map[string]string{}
	secretName := dig(c, "envFrom", 0, "secretRef", "name").(string)
	for k, v := range dig(m.get(t, "Secret", secretName), "stringData").(map[string]any) {
		env[k] = v.(string)
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
	root := t.TempDir()
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
