package main

import (
	"github.com/mcpdecl/mcpdecl/langschema"
)

// schemaCmd prints the JSON Schema of the JSON syntax, the file
// editors/schema/mcpdecl.schema.json holds (a test keeps the two equal).
type schemaCmd struct{}

func (schemaCmd) Run(s streams) error {
	_, err := s.out.Write(langschema.JSONSchema())
	return err
}
