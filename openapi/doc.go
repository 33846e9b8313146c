// Package openapi turns an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or
// 3.1; YAML or JSON) into an mcpdecl configuration: one backend "http", one
// tool per selected operation, the document's authentication read through
// env(), and a comment wherever the document says something the language
// cannot express, with the warnings a reader needs before serving it
// (Result). It is what `mcpdecl import openapi` runs.
//
// It stands on floor 2 (docs/architecture.md) and imports only the leaves
// under internal/: it writes configuration text and never compiles it, so
// the few facts it shares with higher packages (lint's longest name,
// maxToolName) are repeated here, each with a comment naming where it
// comes from. Its tests compile the output with lang, table and
// adapters/all, and lint it.
//
// # The parser
//
// Documents are read with github.com/pb33f/libopenapi rather than
// github.com/getkin/kin-openapi, for four reasons:
//
//   - Swagger 2.0 is a model of its own in libopenapi, read as written;
//     kin-openapi reads 2.0 only by converting it to 3.0 (openapi2conv),
//     which rewrites bodies and form parameters before we see them.
//   - OpenAPI 3.1 (type arrays, numeric exclusiveMinimum, JSON Schema
//     2020-12 keywords) has been supported by libopenapi for years; in
//     kin-openapi it arrived only recently.
//   - Speed on a large document: GitHub's REST description (13 MB of JSON,
//     1,200 operations) is read in about 1.1 s of CPU by libopenapi and
//     2.9 s by kin-openapi on the same machine, and libopenapi builds
//     schemas lazily, so only the schemas of the selected operations cost
//     anything.
//   - Weight: libopenapi brings its YAML fork, an ordered map and a JSONPath
//     package; kin-openapi brings about as many. Neither is light, which is
//     why only this package and the command import it.
//
// Before libopenapi indexes the document, the parts the importer never
// reads (operations' responses, the values of component examples) are
// taken out of its node tree (prune.go), and the model is collected as
// soon as the API is read out of it (readModel, collectModel): on GitHub's
// description the model is the largest the heap is, about 190 MB, and the
// import peaks at about 270 MiB (scripts/bench-import.sh).
//
// References are resolved by libopenapi, local ones and those to files
// in the document's folder and below, read through folderFS (or, for a
// document read over HTTP, on its own origin); a reference anywhere else
// is refused. A schema that refers back to itself is cut where it would
// repeat, with a comment. The document's nesting and weight, and how far
// its schemas expand, are bounded (budget.go).
//
// # The mapping
//
// The rules (names, types, request bodies, annotations, what becomes a
// comment, the warnings) are listed in docs/import.md; the code that
// applies each rule says why it chose what it did. A oneOf or anyOf
// request body is the one place the output is a JSON Schema rather than
// arg blocks (jsonschema.go).
package openapi
