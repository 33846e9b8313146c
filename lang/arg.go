package lang

import (
	"github.com/hashicorp/hcl/v2"
)

// Arg is an `arg` block (an argument of a tool, template or prompt) or a
// `property` block (a field of an object argument).
type Arg struct {
	Name      string    `hcl:"name,label"`
	NameRange hcl.Range `hcl:"name,label_range"`
	// Body is the block's body until Load decodes it into Spec.
	Body      hcl.Body  `hcl:",remain"`
	DeclRange hcl.Range `hcl:",def_range"`

	// Spec is the decoded body, set by Load; nil once the tool is slim
	// (Tool.Slim), which keeps its description only.
	Spec *ArgSpec
	// slimDescription is the description a slim argument keeps.
	slimDescription *hcl.Attribute
	slim            bool
}

// Described returns the argument's description attribute (nil when it
// has none); decoded is false when its block could not be decoded.
func (a *Arg) Described() (description *hcl.Attribute, decoded bool) {
	if a.slim {
		return a.slimDescription, true
	}
	if a.Spec == nil {
		return nil, false
	}
	return a.Spec.Description, true
}

// ArgSpec is everything said about one value: its type and the constraints
// that become its JSON Schema. Constraint attributes are recorded
// unevaluated; they may refer to variables and locals.
type ArgSpec struct {
	TypeExpr         *hcl.Attribute   `hcl:"type,optional"`
	Title            *hcl.Attribute   `hcl:"title,optional"`
	Description      *hcl.Attribute   `hcl:"description,optional"`
	Default          *hcl.Attribute   `hcl:"default,optional"`
	Enum             *hcl.Attribute   `hcl:"enum,optional"`
	Const            *hcl.Attribute   `hcl:"const,optional"`
	Examples         *hcl.Attribute   `hcl:"examples,optional"`
	Pattern          *hcl.Attribute   `hcl:"pattern,optional"`
	Format           *hcl.Attribute   `hcl:"format,optional"`
	Minimum          *hcl.Attribute   `hcl:"minimum,optional"`
	Maximum          *hcl.Attribute   `hcl:"maximum,optional"`
	ExclusiveMinimum *hcl.Attribute   `hcl:"exclusive_minimum,optional"`
	ExclusiveMaximum *hcl.Attribute   `hcl:"exclusive_maximum,optional"`
	MultipleOf       *hcl.Attribute   `hcl:"multiple_of,optional"`
	MinLength        *hcl.Attribute   `hcl:"min_length,optional"`
	MaxLength        *hcl.Attribute   `hcl:"max_length,optional"`
	MinItems         *hcl.Attribute   `hcl:"min_items,optional"`
	MaxItems         *hcl.Attribute   `hcl:"max_items,optional"`
	UniqueItems      *hcl.Attribute   `hcl:"unique_items,optional"`
	Required         *hcl.Attribute   `hcl:"required,optional"`
	Optional         *hcl.Attribute   `hcl:"optional,optional"`
	Nullable         *hcl.Attribute   `hcl:"nullable,optional"`
	Sensitive        *hcl.Attribute   `hcl:"sensitive,optional"`
	Completions      *hcl.Attribute   `hcl:"completions,optional"`
	CompleteBlocks   []*completeBlock `hcl:"complete,block"`
	Validations      []*Validation    `hcl:"validation,block"`
	ItemsBlocks      []*itemsBlock    `hcl:"items,block"`
	Properties       []*Arg           `hcl:"property,block"`

	// Type is the parsed type expression (string when omitted).
	Type *Type
	// Items is the decoded `items` block, nil when absent.
	Items *ArgSpec
	// Complete is the call that suggests values for completion/complete
	// (its expressions see args.value, the text typed so far); nil when
	// there is none.
	Complete *Call
}

// completeBlock is a `complete { <call> }` block of an argument.
type completeBlock struct {
	HTTP      []*labeledCall `hcl:"http,block"`
	SQL       []*labeledCall `hcl:"sql,block"`
	Shell     []*shellCall   `hcl:"shell,block"`
	MCP       []*labeledCall `hcl:"mcp,block"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

type itemsBlock struct {
	Body      hcl.Body  `hcl:",remain"`
	DeclRange hcl.Range `hcl:",def_range"`
}

// decodeArgs decodes the body of each arg (or property) block in place.
func decodeArgs(args []*Arg) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range args {
		spec, d := decodeArgSpec(a.Body)
		diags = append(diags, d...)
		a.Spec = spec
		a.Body = nil // all of it is in Spec; the syntax it holds can go
		diags = append(diags, checkArgName(a.Name, a.NameRange)...)
	}
	diags = append(diags, checkUniqueArgs(args)...)
	return diags
}

func decodeArgSpec(body hcl.Body) (*ArgSpec, hcl.Diagnostics) {
	spec := &ArgSpec{}
	diags := decodeBody(body, spec)
	spec.Type = &Type{Kind: KindString}
	if spec.TypeExpr != nil {
		t, d := ParseType(spec.TypeExpr.Expr)
		diags = append(diags, d...)
		if t != nil {
			spec.Type = t
		}
	}
	diags = append(diags, decodeArgs(spec.Properties)...)
	cb, d := single(spec.CompleteBlocks, func(b *completeBlock) hcl.Range { return b.DeclRange }, "complete", "This argument")
	diags = append(diags, d...)
	if cb != nil {
		spec.Complete, d = oneCall(allCalls(cb.HTTP, cb.SQL, cb.Shell, cb.MCP), "A complete block", cb.DeclRange, true, "", "Split it into separate tools.")
		diags = append(diags, d...)
	}
	items, d := single(spec.ItemsBlocks, func(b *itemsBlock) hcl.Range { return b.DeclRange }, "items", "This argument")
	diags = append(diags, d...)
	if items != nil {
		spec.Items, d = decodeArgSpec(items.Body)
		diags = append(diags, d...)
		if spec.Items.TypeExpr == nil && spec.Type.Elem != nil {
			spec.Items.Type = spec.Type.Elem
		}
	}
	return spec, diags
}
