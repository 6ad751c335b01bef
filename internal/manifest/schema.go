package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/sdk/abi"
)

// checkSchema requires a JSON Schema object whose type is "object" and which
// compiles. Input schemas must describe their properties.
func checkSchema(raw json.RawMessage, input bool) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errors.New("missing")
	}
	var top struct {
		Type       any             `json:"type"`
		Properties json.RawMessage `json:"properties"`
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
	_, err := CompileSchema("schema.json", raw)
	return err
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
func CompileSchema(name string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	refused := &refuseLoader{}
	c.UseLoader(refused)
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
