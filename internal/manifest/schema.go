package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/sdk/abi"
)

// checkSchema requires a JSON Schema object whose type is "object" and which
// compiles. Input schemas must describe their properties.
func checkSchema(raw json.RawMessage, input bool, budget *schemaBudget) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errors.New("missing")
	}
	var top struct {
		Type       any             `json:"type"`
		Properties json.RawMessage `json:"properties"`
		AnyOf      json.RawMessage `json:"anyOf"`
		OneOf      json.RawMessage `json:"oneOf"`
		AllOf      json.RawMessage `json:"allOf"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if top.Type != "object" {
		return errors.New(`type must be "object"`)
	}
	if input && len(top.Properties) == 0 {
		return errors.New("properties are missing")
	}
	if err := checkDialect(raw); err != nil {
		return err
	}
	if input {
		// Clients send the input schema to the model's API with every
		// request, and Anthropic's refuses the whole request for one
		// whose top holds a combinator: every call of the session failed.
		for i, v := range []json.RawMessage{top.AnyOf, top.OneOf, top.AllOf} {
			if len(v) > 0 {
				return fmt.Errorf("%s at its top: a model's API refuses every request holding a tool whose input schema has anyOf, oneOf or allOf at its top; put the rule inside a property, or check it in the tool", [...]string{"anyOf", "oneOf", "allOf"}[i])
			}
		}
		if err := checkArgumentNames(top.Properties); err != nil {
			return err
		}
		// mcp-go refuses a tool whose x-mcp-header annotations it could
		// not route on by panicking when juju registers it: checked here,
		// such a plugin is refused, and juju starts without it.
		if err := mcp.ValidateParamHeaderAnnotations(&mcp.Tool{RawInputSchema: raw}); err != nil {
			return err
		}
	}
	_, err := compileSchema("schema.json", raw, budget)
	return err
}

// checkArgumentNames refuses an input schema's property named otherwise
// than ^[a-zA-Z0-9_.-]{1,64}$, the names a model's API takes: Anthropic's
// refuses the whole request for one tool with another (a bracket, a space,
// a dollar, a letter outside ASCII), so every call of the session failed.
func checkArgumentNames(props json.RawMessage) error {
	var names map[string]json.RawMessage
	if json.Unmarshal(props, &names) != nil {
		return nil // compileSchema says what is wrong with it
	}
	for name := range names {
		ok := len(name) >= 1 && len(name) <= 64
		for i := 0; ok && i < len(name); i++ {
			c := name[i]
			ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
		}
		if !ok {
			return fmt.Errorf("the argument %s must be named as ^[a-zA-Z0-9_.-]{1,64}$: a model's API refuses every request holding a tool with an argument named otherwise", abi.Quote(name))
		}
	}
	return nil
}

// dialect is the JSON Schema of every tool schema: MCP's, 2020-12. A
// tool's $schema may name it, or nothing.
const dialect = "https://json-schema.org/draft/2020-12/schema"

// checkDialect refuses a schema that names another dialect than dialect
// anywhere: a string $schema member of any object in it, an embedded
// resource's or a subschema's too. Clients hand every tool's input schema
// to the model's API with each request, and Anthropic's refuses the whole
// request for one of draft-07 (every call of the session fails, other
// tools' and servers' included); the TypeScript SDK's client will not call
// a tool whose output schema declares draft-07. Where a $schema is not a
// keyword (a default's or an enum's value) refusing it costs nothing real.
func checkDialect(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	key, inObject := false, []bool{}
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // compileSchema says what is wrong with the JSON
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				inObject = append(inObject, true)
				key = true
			case '[':
				inObject = append(inObject, false)
				key = false
			default:
				inObject = inObject[:len(inObject)-1]
				key = len(inObject) > 0 && inObject[len(inObject)-1]
			}
			continue
		case string:
			if key && v == "$schema" {
				next, err := dec.Token()
				if err != nil {
					return nil
				}
				if s, ok := next.(string); ok && s != dialect && s != dialect+"#" {
					return fmt.Errorf("$schema names %s: a tool's schema is JSON Schema 2020-12, MCP's dialect (a $schema of %s, or none), since clients send it to the model's API, which refuses a request holding a schema of another draft", abi.Quote(s), dialect)
				}
				if d, ok := next.(json.Delim); ok {
					inObject = append(inObject, d == '{')
					key = d == '{'
				}
				continue // the member read whole: a key comes next
			}
		}
		if len(inObject) > 0 && inObject[len(inObject)-1] {
			key = !key
		}
	}
}

// ErrExternalRef is the error of a schema that refers outside itself.
var ErrExternalRef = errors.New("the schema refers outside itself")

// schemaBase is the base URL a schema compiles under. It names no file and
// no host juju would ever reach (.invalid is reserved), so a relative $ref
// resolves to a URL the loader refuses rather than to a path beside juju's
// working directory.
const schemaBase = "https://juju.invalid/schema/"

// CompileSchema compiles a JSON Schema document (draft 2020-12 unless the
// document says otherwise). Only the document itself and the standard
// metaschemas, built into the library, can be referred to: every other URL
// a $ref, $dynamicRef or $schema names is refused, never loaded. The
// library's default loader opens file:// URLs, which would let a plugin's
// manifest make juju read any file of the owner's, or wait forever on
// /dev/stdin, at install, at every start and at a tool's first call.
// Every JSON Schema juju compiles goes through here (TestOneSchemaCompiler).
//
// A schema holds at most MaxSchemaObjects JSON objects, and the regular
// expressions it compiles (pattern, patternProperties, and the
// metaschema's check that each is one) at most MaxPatternInsts
// instructions; a manifest's schemas share those bounds.
func CompileSchema(name string, raw json.RawMessage) (*jsonschema.Schema, error) {
	return compileSchema(name, raw, newBudget())
}

func compileSchema(name string, raw json.RawMessage, budget *schemaBudget) (*jsonschema.Schema, error) {
	if err := budget.takeObjects(raw); err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	refused := &refuseLoader{}
	c.UseLoader(refused)
	c.UseRegexpEngine(budget.compile)
	where := schemaBase + url.PathEscape(name)
	if err := c.AddResource(where, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(where)
	if refused.first != "" {
		return nil, fmt.Errorf("%w: it names %s; a plugin's schema may refer only within itself (\"$ref\": \"#/$defs/…\"): write the referred schema into it", ErrExternalRef, abi.Quote(refused.first))
	}
	if err != nil {
		return nil, fmt.Errorf("does not compile: %v", err)
	}
	return s, nil
}

// refuseLoader loads nothing, and keeps the first URL it was asked for.
type refuseLoader struct{ first string }

func (l *refuseLoader) Load(u string) (any, error) {
	if l.first == "" {
		l.first = u
	}
	return nil, ErrExternalRef
}

var _ jsonschema.URLLoader = (*refuseLoader)(nil)

// Bounds of what compiling one manifest's schemas may cost, since juju
// compiles every installed plugin's schemas at every start (and juju
// plugins list, and install): a plugin granted nothing made each start
// take 28 s with a 0.9 MB manifest of one tool of 30,000 arguments (the
// schema compiler is superlinear in an object's members), and 45 s and
// 1.3 GB with a 1 MiB manifest of "\pL{1000}" patterns.
const (
	// MaxSchemaObjects bounds the JSON objects of the tools' input and
	// output schemas together: juju's core plugin has 731.
	MaxSchemaObjects = 2048
	// MaxPatternInsts bounds their regular expressions together, in the
	// instructions Go's regexp compiles them to (a counted repetition is
	// as many copies of what it repeats; a large class such as \pL counts
	// as several; a pattern given again counts once), each several
	// microseconds to compile when anchored: some 150 different patterns
	// as long as a tool name's rule (^[a-z0-9_]{1,64}$).
	MaxPatternInsts = 20_000
)

// schemaBudget is what is left of the bounds for the schemas of one
// manifest (or of one schema compiled on its own); a pattern budget below
// zero is spent, and every later pattern is refused unread.
type schemaBudget struct {
	insts, objects int
	// compiled holds each pattern compiled, which costs nothing again: the
	// metaschema's check and the keyword compile each, and one rule may
	// serve many arguments.
	compiled map[string]*regexp.Regexp
}

func newBudget() *schemaBudget {
	return &schemaBudget{insts: MaxPatternInsts, objects: MaxSchemaObjects, compiled: map[string]*regexp.Regexp{}}
}

// errSchemaBudget is the error of schemas past a bound.
var errSchemaBudget = errors.New("the schemas are too large")

// takeObjects counts the JSON objects of raw, a valid JSON text, against
// the budget, before anything compiles it.
func (b *schemaBudget) takeObjects(raw json.RawMessage) error {
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{':
			b.objects--
		}
	}
	if b.objects < 0 {
		return fmt.Errorf("%w: the tools' input and output schemas hold more than %d JSON objects together; juju compiles them at every start: describe fewer arguments, or split the plugin", errSchemaBudget, MaxSchemaObjects)
	}
	return nil
}

// compile is the schema compiler's regexp engine: a pattern is sized
// from its parse, which expands nothing, and compiled only within what the
// budget has left.
func (b *schemaBudget) compile(s string) (jsonschema.Regexp, error) {
	if re, ok := b.compiled[s]; ok {
		return re, nil
	}
	if b.insts >= 0 {
		re, err := syntax.Parse(s, syntax.Perl)
		if err != nil {
			return regexp.Compile(s) // the error regexp gives
		}
		b.insts -= insts(re, b.insts+1)
	}
	if b.insts < 0 {
		return nil, fmt.Errorf("%w: their regular expressions together would compile to more than %d instructions (a{n} counts n times a); use fewer or shorter patterns", errSchemaBudget, MaxPatternInsts)
	}
	re, err := regexp.Compile(s)
	if err == nil {
		b.compiled[s] = re
	}
	return re, err
}

// insts counts the instructions re compiles to, roughly as
// regexp/syntax.Compile lays them out after Simplify, stopping past limit.
func insts(re *syntax.Regexp, limit int) int {
	n := 1
	switch re.Op {
	case syntax.OpLiteral:
		n = max(len(re.Rune), 1)
	case syntax.OpCharClass:
		n += len(re.Rune) / 32
	case syntax.OpRepeat:
		sub := insts(re.Sub[0], limit)
		n += max(re.Min, 1) * sub
		if re.Max > re.Min { // each optional copy adds a branch
			n += (re.Max - re.Min) * (sub + 1)
		}
	default:
		for _, sub := range re.Sub {
			if n += insts(sub, limit); n > limit {
				break
			}
		}
	}
	return min(n, limit)
}
