package manifest

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxEvaluations bounds how many times checking one instance against a
// plugin's schema may apply a subschema to a value. Applicators that
// share a subschema ($ref) multiply: a oneOf of two branches that each
// apply the same definition to the items of an array evaluates it 2^d
// times for arrays nested d deep, and 44 bytes of [[[…]]] nested 18
// deep took 7 s, 30 deep some hours, with no deadline to stop it. The
// bound passes every instance of up to a MiB whose schema applies no
// subschema twice to a value (a MiB of [0,0,…] is 524,288 evaluations);
// at it, a check takes seconds, not hours.
const MaxEvaluations = 600_000

// WithinCost reports whether validating v (as jsonschema.UnmarshalJSON
// decodes it) against s applies subschemas at most limit times. It walks
// what the validator walks, every branch taken (an upper bound), and
// stops as soon as the count passes limit, so it costs at most limit
// steps whatever the schema and the instance. A subschema reached again
// on the same value through applicators alone is a cycle the validator
// refuses, and is counted once.
func WithinCost(s *jsonschema.Schema, v any, limit int) bool {
	c := costWalk{left: limit}
	c.visit(s, v, nil)
	return c.left >= 0
}

type costWalk struct{ left int }

// visit counts s applied to v; inPlace holds the schemas applied to v
// already on the way to s.
func (c *costWalk) visit(s *jsonschema.Schema, v any, inPlace []*jsonschema.Schema) {
	if s == nil || c.left < 0 {
		return
	}
	if c.left--; c.left < 0 {
		return
	}
	for _, t := range inPlace {
		if t == s {
			return
		}
	}
	inPlace = append(inPlace, s)
	same := func(t *jsonschema.Schema) { c.visit(t, v, inPlace) }
	same(s.Ref)
	same(s.RecursiveRef)
	if s.DynamicRef != nil {
		same(s.DynamicRef.Ref)
	}
	same(s.Not)
	same(s.If)
	same(s.Then)
	same(s.Else)
	same(s.ContentSchema)
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, t := range list {
			same(t)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		for _, t := range s.DependentSchemas {
			same(t)
		}
		for _, d := range s.Dependencies {
			if t, ok := d.(*jsonschema.Schema); ok {
				same(t)
			}
		}
		for name, item := range v {
			if c.left < 0 {
				return
			}
			c.visit(s.PropertyNames, name, nil)
			c.visit(s.Properties[name], item, nil)
			for _, t := range s.PatternProperties {
				c.visit(t, item, nil)
			}
			if t, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
				c.visit(t, item, nil)
			}
			c.visit(s.UnevaluatedProperties, item, nil)
		}
	case []any:
		for i, item := range v {
			if c.left < 0 {
				return
			}
			if i < len(s.PrefixItems) {
				c.visit(s.PrefixItems[i], item, nil)
			}
			c.visit(s.Items2020, item, nil)
			switch items := s.Items.(type) {
			case *jsonschema.Schema:
				c.visit(items, item, nil)
			case []*jsonschema.Schema:
				if i < len(items) {
					c.visit(items[i], item, nil)
				}
			}
			if t, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
				c.visit(t, item, nil)
			}
			c.visit(s.Contains, item, nil)
			c.visit(s.UnevaluatedItems, item, nil)
		}
	}
}
