package auth

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// wellKnownPRM is the well-known URI suffix of RFC 9728 §3.
const wellKnownPRM = "/.well-known/oauth-protected-resource"

// protectedResourceMetadata is the RFC 9728 §2 document.
type protectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers,omitempty"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

func buildMetadata(cfg *Config, resource string) []byte {
	doc := protectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: cfg.AuthorizationServers,
		ScopesSupported:      cfg.ScopesSupported,
		// Only the header: tokens in query strings end up in logs and
		// browser history, and form bodies are not how MCP is sent.
		BearerMethodsSupported: []string{"header"},
		ResourceName:           cfg.ResourceName,
		ResourceDocumentation:  cfg.ResourceDocumentation,
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic("auth: cannot encode the resource metadata: " + err.Error()) // strings only: cannot happen
	}
	return b
}

// Metadata returns the RFC 9728 protected resource metadata document.
func (v *Verifier) Metadata() []byte { return v.metadata }

// MetadataPaths returns the paths to serve the metadata at for an MCP
// endpoint path: the RFC 9728 §3.1 form with the endpoint's path appended
// to the well-known prefix ("/mcp" → "/.well-known/oauth-protected-resource/mcp"),
// which MCP clients try first, and the root form
// "/.well-known/oauth-protected-resource", which they fall back to (MCP
// authorization, 2025-11-25 and later; 2025-06-18 clients use the
// WWW-Authenticate header's URL).
func MetadataPaths(endpointPath string) []string {
	p := strings.TrimSuffix(endpointPath, "/")
	if p == "" {
		return []string{wellKnownPRM}
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return []string{wellKnownPRM + p, wellKnownPRM}
}

// MetadataURL returns the absolute URL of the metadata, for the
// WWW-Authenticate challenge: Config.Resource's origin with the
// well-known prefix inserted before its path. It is built from the
// configuration, never from the request's Host header, which a client
// controls; r is accepted so a future version may honour a trusted proxy.
func (v *Verifier) MetadataURL(r *http.Request) string {
	return metadataURLFor(v.resource)
}

func metadataURLFor(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return resource
	}
	return u.Scheme + "://" + u.Host + MetadataPaths(u.EscapedPath())[0]
}

// MetadataHandler serves Metadata() to GET and HEAD, to any origin (the
// document is public, and browser-based clients read it cross-origin).
func (v *Verifier) MetadataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "MCP-Protocol-Version")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			h.Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "public, max-age=300")
		if r.Method == http.MethodGet {
			_, _ = w.Write(v.metadata)
		}
	})
}
