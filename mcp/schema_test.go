package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// specDir holds the official schemas (vendored, see its README), relative
// to this package directory.
const specDir = "../testdata/mcp-spec"

var schemas struct {
	once sync.Once
	err  error
	c    map[string]*jsonschema.Compiler
	mu   sync.Mutex
	sch  map[string]*jsonschema.Schema
}

func loadSchemas(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(specDir); err != nil {
		t.Fatalf("official MCP schemas not found at %s (%v); they are part of the repository", specDir, err)
	}
	schemas.once.Do(func() {
		schemas.c = map[string]*jsonschema.Compiler{}
		schemas.sch = map[string]*jsonschema.Schema{}
		for _, rev := range knownOrder {
			f, err := os.Open(filepath.Join(specDir, rev, "schema.json"))
			if err != nil {
				schemas.err = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(f)
			f.Close()
			if err != nil {
				schemas.err = err
				return
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("mcp://"+rev+"/schema.json", doc); err != nil {
				schemas.err = err
				return
			}
			schemas.c[rev] = c
		}
	})
	if schemas.err != nil {
		t.Fatalf("loading schemas: %v", schemas.err)
	}
}

func schemaFor(t testing.TB, rev, def string) *jsonschema.Schema {
	t.Helper()
	loadSchemas(t)
	defs := "$defs"
	if rev == Version20250326 || rev == Version20250618 {
		defs = "definitions"
	}
	key := rev + "#" + def
	schemas.mu.Lock()
	defer schemas.mu.Unlock()
	if s := schemas.sch[key]; s != nil {
		return s
	}
	s, err := schemas.c[rev].Compile("mcp://" + rev + "/schema.json#/" + defs + "/" + def)
	if err != nil {
		t.Fatalf("compiling %s: %v", key, err)
	}
	schemas.sch[key] = s
	return s
}

func validateAgainst(t testing.TB, rev, def string, v []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(v))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", def, err, v)
	}
	if err := schemaFor(t, rev, def).Validate(inst); err != nil {
		t.Errorf("%s %s: schema violation: %v\nmessage: %s", rev, def, err, v)
	}
}

// resultDefs maps a request method to its result definition.
var resultDefs = map[string]string{
	"server/discover": "DiscoverResult", "initialize": "InitializeResult",
	"tools/list": "ListToolsResult", "tools/call": "CallToolResult",
	"resources/list": "ListResourcesResult", "resources/templates/list": "ListResourceTemplatesResult",
	"resources/read": "ReadResourceResult", "prompts/list": "ListPromptsResult",
	"prompts/get": "GetPromptResult", "completion/complete": "CompleteResult",
	"ping": "EmptyResult", "logging/setLevel": "EmptyResult",
	"resources/subscribe": "EmptyResult", "resources/unsubscribe": "EmptyResult",
	"subscriptions/listen": "SubscriptionsListenResult",
}

// modernErrorDefs maps codes to the typed error definitions of 2026-07-28.
var modernErrorDefs = map[int]string{
	CodeParseError: "ParseError", CodeInvalidRequest: "InvalidRequestError",
	CodeMethodNotFound: "MethodNotFoundError", CodeInvalidParams: "InvalidParamsError",
	CodeInternalError: "InternalError", CodeHeaderMismatch: "HeaderMismatchError",
	CodeMissingRequiredClientCapability: "MissingRequiredClientCapabilityError",
	CodeUnsupportedProtocolVersion:      "UnsupportedProtocolVersionError",
}

// wholeMessageErrors are the 2026-07-28 error definitions that describe a
// whole response rather than its error object.
var wholeMessageErrors = map[string]bool{
	"UnsupportedProtocolVersionError": true, "HeaderMismatchError": true,
	"MissingRequiredClientCapabilityError": true,
}

// checkSent validates one message the server sent in answer to (or during)
// a request of method, served under revision rev: the whole message against
// JSONRPCMessage, results against the method's definition, notifications
// against ServerNotification, errors against the typed modern errors; and
// asserts that legacy results carry no modern field.
func checkSent(t testing.TB, rev, method string, msg []byte) {
	t.Helper()
	if IsBatch(msg) { // a 2025-03-26 batch response
		validateAgainst(t, Version20250326, "JSONRPCMessage", msg)
		var elems []json.RawMessage
		_ = json.Unmarshal(msg, &elems)
		for _, e := range elems {
			checkSent(t, Version20250326, "", e)
		}
		return
	}
	var m struct {
		ID     json.RawMessage            `json:"id"`
		Method string                     `json:"method"`
		Result map[string]json.RawMessage `json:"result"`
		Error  *Error                     `json:"error"`
	}
	var raw struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(msg, &raw)
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("server sent non-JSON: %v\n%s", err, msg)
	}
	if VersionEra(rev) == EraUnknown || (m.Error != nil && m.ID == nil && VersionEra(rev) == EraLegacy && rev != Version20251125) {
		rev = Version20260728 // id-less errors only validate where id is optional
	}
	validateAgainst(t, rev, "JSONRPCMessage", msg)
	switch {
	case m.Method != "" && m.ID == nil:
		validateAgainst(t, rev, "ServerNotification", msg)
	case m.Method != "":
		validateAgainst(t, rev, "ServerRequest", msg)
	case m.Error != nil:
		if VersionEra(rev) == EraModern {
			def := modernErrorDefs[m.Error.Code]
			if def == "" {
				t.Errorf("modern error with unexpected code %d: %s", m.Error.Code, msg)
			} else if wholeMessageErrors[def] {
				validateAgainst(t, rev, def, msg)
			} else { // the generic typed errors describe the error object only
				validateAgainst(t, rev, def, raw.Error)
			}
		}
	case m.Result != nil:
		def := resultDefs[method]
		raw, _ := json.Marshal(m.Result)
		if string(m.Result["resultType"]) == `"input_required"` {
			def = "InputRequiredResult"
		}
		if def != "" {
			validateAgainst(t, rev, def, raw)
		}
		if VersionEra(rev) == EraLegacy {
			assertNoModernFields(t, raw)
		}
	}
}

func assertNoModernFields(t testing.TB, result []byte) {
	t.Helper()
	for _, k := range []string{`"resultType"`, `"ttlMs"`, `"cacheScope"`, MetaServerInfo} {
		if strings.Contains(string(result), k) {
			t.Errorf("legacy result carries modern field %s: %s", k, result)
		}
	}
}

func TestSchemasLoad(t *testing.T) {
	for _, rev := range knownOrder {
		schemaFor(t, rev, "JSONRPCMessage")
	}
}
