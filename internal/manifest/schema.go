package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// CompileSchema compiles a JSON Schema document (draft 2020-12 unless the
// document says otherwise).
func CompileSchema(name string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(name)
	if err != nil {
		return nil, fmt.Errorf("does not compile: %v", err)
	}
	return s, nil
}
