package fastschema

// What the external tests (agree_test.go) use of the internal ones.
var (
	CompileSchemaDoc = compileSchemaDoc
	AsJSON           = asJSON
)
