package tracing

import (
	"fmt"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel/attribute"
)

// Resource describes the process the spans come from (service.name,
// service.version, ...): every span of a Provider carries it.
type Resource struct {
	set       attribute.Set // sorted by key, each key once
	schemaURL string
}

// NewResource is a resource of attrs (of a key given twice, the last
// value), under the semantic conventions' schemaURL ("" for none).
func NewResource(schemaURL string, attrs ...attribute.KeyValue) *Resource {
	return &Resource{set: attribute.NewSet(attrs...), schemaURL: schemaURL}
}

// Attributes are the resource's attributes, sorted by key.
func (r *Resource) Attributes() []attribute.KeyValue { return r.set.ToSlice() }

// SchemaURL is the schema the attributes follow, "" when none is named.
func (r *Resource) SchemaURL() string { return r.schemaURL }

// resourceFrom is serve's resource: service.name mcpdecl and its
// version, the telemetry.sdk attributes, then what OTEL_RESOURCE_ATTRIBUTES
// adds or overrides, then OTEL_SERVICE_NAME, which wins over a
// service.name among those attributes (as the OpenTelemetry environment
// specification has it).
func resourceFrom(getenv func(string) string, version string) (*Resource, error) {
	// The spans are made by this package, not the OpenTelemetry SDK: the
	// telemetry.sdk attributes name it, as the conventions ask of an
	// implementation of the API other than the SDK.
	attrs := []attribute.KeyValue{
		attribute.String("service.name", "mcpdecl"), attribute.String("service.version", version),
		attribute.String("telemetry.sdk.name", instrumentation+"/observe/tracing"),
		attribute.String("telemetry.sdk.language", "go"), attribute.String("telemetry.sdk.version", version),
	}
	for pair := range strings.SplitSeq(getenv("OTEL_RESOURCE_ATTRIBUTES"), ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		key, value, ok := strings.Cut(pair, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("traces: OTEL_RESOURCE_ATTRIBUTES: %q is not key=value; write key=value pairs separated by commas", strings.TrimSpace(pair))
		}
		decoded, err := url.PathUnescape(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("traces: OTEL_RESOURCE_ATTRIBUTES: the value of %s: %w; percent-encode a comma, an equals sign or a percent sign in a value", key, err)
		}
		attrs = append(attrs, attribute.String(key, decoded))
	}
	if name := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); name != "" {
		attrs = append(attrs, attribute.String("service.name", name))
	}
	return NewResource("", attrs...), nil
}
