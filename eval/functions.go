package eval

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"slices"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Env controls what env() may read. A listed variable NAME that is not
// set may be given as a file instead: NAME_FILE names it (how container
// platforms and secret managers hand out secrets, see secretfile.go).
type Env struct {
	// Allowed lists the variable names env() may read; any other name is an
	// error, so a config cannot reach secrets it did not declare.
	Allowed []string
	// Lookup reads a variable. When nil, env() returns an unknown string:
	// that is how `mcpdecl validate` type-checks without reading anything.
	Lookup func(name string) (string, bool)
	// Unset gives the value of a variable that Lookup does not find and
	// env() has no default for: `mcpdecl test` puts a placeholder there.
	// When nil, or when it returns false, such an env() is an error.
	Unset func(name string) (string, bool)
}

// Functions returns the function table for expressions written in files
// under baseDir (file() paths are relative to it).
func Functions(baseDir string, env *Env) map[string]function.Function {
	fns := map[string]function.Function{
		"env":          envFunc(env),
		"file":         fileFunc(baseDir, false),
		"filebase64":   fileFunc(baseDir, true),
		"base64encode": base64EncodeFunc,
		"base64decode": base64DecodeFunc,
		"urlencode":    urlEncodeFunc,
		"try":          tryfunc.TryFunc,
		"can":          tryfunc.CanFunc,
	}
	for name, fn := range stdlibFunctions {
		fns[name] = fn
	}
	return fns
}

// FunctionNames lists every function name, sorted (for suggestions and docs).
func FunctionNames() []string {
	names := []string{"env", "file", "filebase64", "base64encode", "base64decode", "urlencode", "try", "can"}
	for name := range stdlibFunctions {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// stdlibFunctions is the curated subset of cty's standard library: pure
// functions on values; nothing that reads the clock, files or the network.
var stdlibFunctions = map[string]function.Function{
	"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
	"max": stdlib.MaxFunc, "min": stdlib.MinFunc, "pow": stdlib.PowFunc,
	"signum": stdlib.SignumFunc, "parseint": stdlib.ParseIntFunc, "log": stdlib.LogFunc,
	"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
	"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
	"upper": stdlib.UpperFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
	"replace": stdlib.ReplaceFunc, "regex_replace": stdlib.RegexReplaceFunc,
	"split": stdlib.SplitFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc,
	"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
	"trimsuffix": stdlib.TrimSuffixFunc, "trimspace": stdlib.TrimSpaceFunc, "strlen": stdlib.StrlenFunc,
	"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
	"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "keys": stdlib.KeysFunc,
	"length": stdlib.LengthFunc, "lookup": stdlib.LookupFunc, "merge": stdlib.MergeFunc,
	"range": stdlib.RangeFunc, "reverse": stdlib.ReverseListFunc, "slice": stdlib.SliceFunc,
	"sort": stdlib.SortFunc, "values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
	"chunklist": stdlib.ChunklistFunc, "index": stdlib.IndexFunc, "compact": stdlib.CompactFunc,
	"coalesce": stdlib.CoalesceFunc, "coalescelist": stdlib.CoalesceListFunc,
	"setunion": stdlib.SetUnionFunc, "setintersection": stdlib.SetIntersectionFunc,
	"setsubtract": stdlib.SetSubtractFunc,
	"jsonencode":  stdlib.JSONEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
	"csvdecode": stdlib.CSVDecodeFunc, "formatdate": stdlib.FormatDateFunc,
	"timeadd":  stdlib.TimeAddFunc,
	"tostring": makeToFunc(cty.String), "tonumber": makeToFunc(cty.Number),
	"tobool": makeToFunc(cty.Bool), "tolist": makeToFunc(cty.List(cty.DynamicPseudoType)),
	"toset": makeToFunc(cty.Set(cty.DynamicPseudoType)), "tomap": makeToFunc(cty.Map(cty.DynamicPseudoType)),
}

func envFunc(env *Env) function.Function {
	if env == nil {
		env = &Env{}
	}
	return function.New(&function.Spec{
		Description: "Reads an allow-listed environment variable, with an optional default.",
		Params:      []function.Parameter{{Name: "name", Type: cty.String, AllowUnknown: true}},
		VarParam:    &function.Parameter{Name: "default", Type: cty.String},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if !args[0].IsKnown() || args[0].IsNull() {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "env() takes the variable name as a literal string, as in env(\"API_TOKEN\")")
			}
			name := args[0].AsString()
			if len(args) > 2 {
				return cty.UnknownVal(cty.String), fmt.Errorf("env() takes a name and at most one default value")
			}
			if !slices.Contains(env.Allowed, name) {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the environment variable %q is not allowed; list it in server { allow_env = [%q] } to let the config read it", name, name)
			}
			if env.Lookup == nil {
				return cty.UnknownVal(cty.String), nil
			}
			v, ok, err := lookupOrFile(env.Lookup, name)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			if ok {
				return cty.StringVal(v), nil
			}
			if len(args) == 2 {
				return args[1], nil
			}
			if env.Unset != nil {
				if v, ok := env.Unset(name); ok {
					return cty.StringVal(v), nil
				}
			}
			return cty.UnknownVal(cty.String), fmt.Errorf("the environment variable %q is not set; export it before starting mcpdecl, or give a default as env(%q, \"...\")", name, name)
		},
	})
}

func fileFunc(baseDir string, asBase64 bool) function.Function {
	return function.New(&function.Spec{
		Description: "Reads a file relative to the configuration file, or a file named by a value inside a folder the configuration names.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		VarParam:    &function.Parameter{Name: "name", Type: cty.String},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			var b []byte
			var shown string
			var err error
			switch len(args) {
			case 1:
				shown = args[0].AsString()
				b, err = readConfigFile(baseDir, shown)
			case 2:
				shown = args[1].AsString()
				b, err = ReadInFolder(baseDir, args[0].AsString(), shown)
			default:
				return cty.UnknownVal(cty.String), fmt.Errorf("file() takes a path, or a folder and a file name in it")
			}
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			if asBase64 {
				return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
			}
			if !utf8.Valid(b) {
				return cty.UnknownVal(cty.String), &FileError{Name: shown, Reason: "is not UTF-8 text; use filebase64() for binary files"}
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

var base64EncodeFunc = function.New(&function.Spec{
	Description: "Encodes a string as base64.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

var base64DecodeFunc = function.New(&function.Spec{
	Description: "Decodes a base64 string holding UTF-8 text.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		b, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "not valid base64: %s", err)
		}
		if !utf8.Valid(b) {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the decoded bytes are not UTF-8 text")
		}
		return RawString(string(b)), nil // the bytes encoded, not normalised
	},
})

var urlEncodeFunc = function.New(&function.Spec{
	Description: "Escapes a string for use in a URL query.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// makeToFunc converts a value to a type, as Terraform's tostring() etc. do.
func makeToFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Description: "Converts a value to " + want.FriendlyName() + ".",
		Params:      []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			if want.IsCollectionType() && args[0].Type().IsCollectionType() {
				return args[0].Type(), nil
			}
			if want.IsCollectionType() {
				return cty.DynamicPseudoType, nil
			}
			return want, nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return convertTo(args[0], retType, want)
		},
	})
}
