package tracing

import (
	"math"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// The field numbers of the OTLP messages mcpdecl sends
// (opentelemetry/proto/collector/trace/v1, trace/v1, common/v1 and
// resource/v1), written out so that the binary carries no generated
// message types.
const (
	fRequestResourceSpans = 1 // ExportTraceServiceRequest.resource_spans

	fResourceSpansResource   = 1
	fResourceSpansScopeSpans = 2
	fResourceSpansSchemaURL  = 3

	fResourceAttributes = 1

	fScopeSpansScope = 1
	fScopeSpansSpans = 2

	fScopeName = 1

	fSpanTraceID           = 1
	fSpanSpanID            = 2
	fSpanTraceState        = 3
	fSpanParentSpanID      = 4
	fSpanName              = 5
	fSpanKind              = 6
	fSpanStart             = 7
	fSpanEnd               = 8
	fSpanAttributes        = 9
	fSpanDroppedAttributes = 10
	fSpanEvents            = 11
	fSpanDroppedEvents     = 12
	fSpanLinks             = 13
	fSpanStatus            = 15
	fSpanFlags             = 16

	fEventTime       = 1
	fEventName       = 2
	fEventAttributes = 3

	fLinkTraceID    = 1
	fLinkSpanID     = 2
	fLinkAttributes = 4
	fLinkFlags      = 6

	fStatusMessage = 2
	fStatusCode    = 3

	fKeyValueKey   = 1
	fKeyValueValue = 2

	fAnyString = 1
	fAnyBool   = 2
	fAnyInt    = 3
	fAnyDouble = 4
	fAnyArray  = 5
	fAnyKVList = 6
	fAnyBytes  = 7

	fListValues = 1 // ArrayValue.values and KeyValueList.values

	// Span.flags: the context has an is-remote bit (0x100), which is set
	// (0x200) for a remote parent or link.
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200

	// Status.code
	statusUnset = 0
	statusOK    = 1
	statusError = 2
)

// appendExportRequest appends the ExportTraceServiceRequest of spans to
// b: spans grouped by resource (by provider: one in mcpdecl), each group
// in the order its first span came, all of mcpdecl's instrumentation
// scope.
func appendExportRequest(b []byte, spans []*Span) []byte {
	var providers []*Provider // few: one in mcpdecl
	for _, s := range spans {
		if s != nil && !slices.Contains(providers, s.provider) {
			providers = append(providers, s.provider)
		}
	}
	for _, p := range providers {
		var rs, at, ss int
		b, rs = openMessage(b, fRequestResourceSpans)
		b, at = openMessage(b, fResourceSpansResource)
		b = appendIterator(b, fResourceAttributes, p.res.set.Iter())
		b = closeMessage(b, at)
		b, ss = openMessage(b, fResourceSpansScopeSpans)
		b, at = openMessage(b, fScopeSpansScope)
		b = appendString(b, fScopeName, instrumentation)
		b = closeMessage(b, at)
		for _, s := range spans {
			if s != nil && s.provider == p {
				b, at = openMessage(b, fScopeSpansSpans)
				b = appendSpan(b, s)
				b = closeMessage(b, at)
			}
		}
		b = closeMessage(b, ss)
		b = appendString(b, fResourceSpansSchemaURL, p.res.SchemaURL())
		b = closeMessage(b, rs)
	}
	return b
}

func appendSpan(b []byte, s *Span) []byte {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	b = appendBytes(b, fSpanTraceID, tid[:])
	b = appendBytes(b, fSpanSpanID, sid[:])
	b = appendString(b, fSpanTraceState, sc.TraceState().String())
	parent := s.Parent()
	if psid := parent.SpanID(); psid.IsValid() {
		b = appendBytes(b, fSpanParentSpanID, psid[:])
	}
	b = appendString(b, fSpanName, s.Name())
	b = appendVarint(b, fSpanKind, spanKind(s.SpanKind()))
	b = appendFixed64(b, fSpanStart, unixNano(s.StartTime().UnixNano()))
	b = appendFixed64(b, fSpanEnd, unixNano(s.EndTime().UnixNano()))
	b = appendKeyValues(b, fSpanAttributes, s.Attributes())
	b = appendVarint(b, fSpanDroppedAttributes, clampCount(s.DroppedAttributes()))
	for _, e := range s.Events() {
		var at int
		b, at = openMessage(b, fSpanEvents)
		b = appendFixed64(b, fEventTime, unixNano(e.Time.UnixNano()))
		b = appendString(b, fEventName, e.Name)
		b = appendKeyValues(b, fEventAttributes, e.Attributes)
		b = closeMessage(b, at)
	}
	b = appendVarint(b, fSpanDroppedEvents, clampCount(s.DroppedEvents()))
	for _, l := range s.Links() {
		var at int
		b, at = openMessage(b, fSpanLinks)
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		b = appendBytes(b, fLinkTraceID, ltid[:])
		b = appendBytes(b, fLinkSpanID, lsid[:])
		b = appendKeyValues(b, fLinkAttributes, l.Attributes)
		b = appendFixed32(b, fLinkFlags, spanFlags(l.SpanContext.TraceFlags(), l.SpanContext))
		b = closeMessage(b, at)
	}
	var at int
	b, at = openMessage(b, fSpanStatus) // always there, if empty
	st := s.Status()
	b = appendString(b, fStatusMessage, st.Description)
	b = appendVarint(b, fStatusCode, statusCode(st.Code))
	b = closeMessage(b, at)
	b = appendFixed32(b, fSpanFlags, spanFlags(sc.TraceFlags(), parent))
	return b
}

func spanKind(k trace.SpanKind) uint64 {
	// OTLP numbers the kinds as the API does.
	if k >= trace.SpanKindInternal && k <= trace.SpanKindConsumer {
		return uint64(k)
	}
	return 0
}

func statusCode(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return statusOK
	case codes.Error:
		return statusError
	}
	return statusUnset
}

func spanFlags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	f := uint32(tf) | flagHasIsRemote
	if parent.IsRemote() {
		f |= flagIsRemote
	}
	return f
}

func unixNano(n int64) uint64 { return uint64(max(0, n)) }

func clampCount(n int) uint64 {
	return uint64(min(max(0, int64(n)), math.MaxUint32))
}

func appendIterator(b []byte, field protowire.Number, it attribute.Iterator) []byte {
	for it.Next() {
		b = appendKeyValue(b, field, it.Attribute())
	}
	return b
}

func appendKeyValues(b []byte, field protowire.Number, kvs []attribute.KeyValue) []byte {
	for _, kv := range kvs {
		b = appendKeyValue(b, field, kv)
	}
	return b
}

func appendKeyValue(b []byte, field protowire.Number, kv attribute.KeyValue) []byte {
	b, at := openMessage(b, field)
	b = appendString(b, fKeyValueKey, string(kv.Key))
	b, v := openMessage(b, fKeyValueValue)
	b = appendValue(b, kv.Value)
	b = closeMessage(b, v)
	return closeMessage(b, at)
}

// appendValue appends the fields of the AnyValue of v. A oneof field is
// written even when it holds its type's zero value.
func appendValue(b []byte, v attribute.Value) []byte {
	switch v.Type() {
	case attribute.BOOL:
		b = protowire.AppendTag(b, fAnyBool, protowire.VarintType)
		return protowire.AppendVarint(b, protowire.EncodeBool(v.AsBool()))
	case attribute.INT64:
		b = protowire.AppendTag(b, fAnyInt, protowire.VarintType)
		return protowire.AppendVarint(b, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		b = protowire.AppendTag(b, fAnyDouble, protowire.Fixed64Type)
		return protowire.AppendFixed64(b, math.Float64bits(v.AsFloat64()))
	case attribute.STRING:
		b = protowire.AppendTag(b, fAnyString, protowire.BytesType)
		return protowire.AppendString(b, v.AsString())
	case attribute.BYTESLICE:
		b = protowire.AppendTag(b, fAnyBytes, protowire.BytesType)
		return protowire.AppendBytes(b, v.AsByteSlice())
	case attribute.BOOLSLICE:
		return appendArray(b, v.AsBoolSlice(), attribute.BoolValue)
	case attribute.INT64SLICE:
		return appendArray(b, v.AsInt64Slice(), attribute.Int64Value)
	case attribute.FLOAT64SLICE:
		return appendArray(b, v.AsFloat64Slice(), attribute.Float64Value)
	case attribute.STRINGSLICE:
		return appendArray(b, v.AsStringSlice(), attribute.StringValue)
	case attribute.SLICE:
		return appendArray(b, v.AsSlice(), func(x attribute.Value) attribute.Value { return x })
	case attribute.MAP:
		b, at := openMessage(b, fAnyKVList)
		b = appendKeyValues(b, fListValues, v.AsMap())
		return closeMessage(b, at)
	case attribute.EMPTY:
		return b
	}
	b = protowire.AppendTag(b, fAnyString, protowire.BytesType)
	return protowire.AppendString(b, "INVALID")
}

// appendArray appends the ArrayValue of xs, each made a value by value.
func appendArray[T any](b []byte, xs []T, value func(T) attribute.Value) []byte {
	b, at := openMessage(b, fAnyArray)
	for _, x := range xs {
		b = appendElement(b, value(x))
	}
	return closeMessage(b, at)
}

// appendElement appends v as one of the values of an ArrayValue.
func appendElement(b []byte, v attribute.Value) []byte {
	b, at := openMessage(b, fListValues)
	b = appendValue(b, v)
	return closeMessage(b, at)
}

// openMessage appends the tag of an embedded message and one byte for
// its length, and returns where the message starts; closeMessage writes
// the length there once the message is written, widening it when the
// message is 128 bytes or more.
func openMessage(b []byte, field protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return append(b, 0), len(b) + 1
}

func closeMessage(b []byte, start int) []byte {
	n := len(b) - start
	if n < 0x80 {
		b[start-1] = byte(n)
		return b
	}
	w := protowire.SizeVarint(uint64(n))
	b = append(b, make([]byte, w-1)...)
	copy(b[start+w-1:], b[start:start+n])
	protowire.AppendVarint(b[:start-1], uint64(n))
	return b
}

// The scalar fields of proto3 are left out at their zero value.

func appendString(b []byte, field protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, field protowire.Number, p []byte) []byte {
	if len(p) == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, p)
}

func appendVarint(b []byte, field protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendFixed64(b []byte, field protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func appendFixed32(b []byte, field protowire.Number, v uint32) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, v)
}
