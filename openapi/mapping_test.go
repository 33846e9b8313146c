package openapi

import (
	"strings"
	"testing"
)

// generateDoc parses a document given as text, generates it whole and
// validates the result.
func generateDoc(t *testing.T, name, doc string) string {
	t.Helper()
	api, err := parseBytes(t, name, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	out := Generate(api, api.Operations, Options{Source: name})
	checkConfig(t, name, out)
	return string(out)
}

// block returns the lines of the first block whose header line contains
// head, up to its closing brace at the same indentation.
func block(t *testing.T, out, head string) string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.Contains(l, head) || !strings.HasSuffix(l, "{") {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == indent+"}" {
				return strings.Join(lines[i:j+1], "\n")
			}
		}
	}
	t.Fatalf("no block %q in:\n%s", head, numbered([]byte(out)))
	return ""
}

const tasksDoc = `openapi: VERSION
info: {title: Tasks, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /tasks:
    get:
      operationId: listTasks
      parameters:
        - name: priority
          in: query
          schema: {$ref: '#/components/schemas/Priority', default: low}
      responses: {"200": {description: ok}}
    post:
      operationId: createTask
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [title]
              properties:
                title: {type: string}
                priority: {$ref: '#/components/schemas/Priority', default: normal, description: How urgent.}
      responses: {"200": {description: ok}}
components:
  schemas:
    Priority: {type: string, enum: [low, normal, high], description: The priority.}
`

// TestRefSiblings31: in OpenAPI 3.1 a $ref's sibling keywords apply
// together with the referenced schema; the result is the 3.0.3 one.
func TestRefSiblings31(t *testing.T) {
	v30 := generateDoc(t, "tasks30.yaml", strings.Replace(tasksDoc, "VERSION", "3.0.3", 1))
	v31 := generateDoc(t, "tasks31.yaml", strings.Replace(tasksDoc, "VERSION", "3.1.0", 1))
	prop := block(t, v31, `property "priority"`)
	for _, want := range []string{`type        = string`, `description = "How urgent."`, `default     = "normal"`, `enum        = ["low", "normal", "high"]`} {
		if !strings.Contains(prop, want) {
			t.Errorf("3.1: the property lacks %s:\n%s", want, prop)
		}
	}
	arg := block(t, v31, `arg "priority"`)
	if !strings.Contains(arg, `default     = "low"`) || !strings.Contains(arg, "type        = string") {
		t.Errorf("3.1: the parameter lost its reference or its default:\n%s", arg)
	}
	body30 := v30[strings.Index(v30, "server {"):]
	body31 := v31[strings.Index(v31, "server {"):]
	if body30 != body31 {
		t.Errorf("3.1 and 3.0.3 differ:\n%s", firstDiff(body30, body31))
	}
}
