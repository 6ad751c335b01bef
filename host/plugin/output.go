package plugin

import (
	"bytes"
	"errors"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// maxChecked bounds the structured content juju checks against an output
// schema. Decoded for the check, a JSON text takes some 35 times its size
// in juju's heap (64 MiB of {"n":[0,0,…]} took 2.2 GB), and a plugin may
// send as much as its memory holds; a client gets at most
// abi.MaxStructured bytes of it in any case.
const maxChecked = 1 << 20

// outputSchema is a tool's declared output schema, compiled on the tool's
// first successful result.
type outputSchema struct {
	once     sync.Once
	compiled *jsonschema.Schema
}

// checkOutput says what is wrong with the structured content of an
// installed plugin's successful result, measured against the output schema
// its manifest declares for tool; nil when it fits or none is declared.
// MCP clients check it (the TypeScript SDK throws on a mismatch), so a
// result that does not fit would reach the model as a protocol error
// naming no one. Core plugins are not checked on every call: their
// results are checked against their schemas by their own tests.
func (p *Plugin) checkOutput(tool string, structured []byte) *abi.Error {
	if p.embedded || len(structured) == 0 {
		return nil
	}
	var raw []byte
	for i := range p.Manifest.Tools {
		if p.Manifest.Tools[i].Name == tool {
			raw = p.Manifest.Tools[i].OutputSchema
		}
	}
	if len(raw) == 0 {
		return nil
	}
	if len(structured) > maxChecked {
		return abi.Errorf(abi.PluginFailed, "the plugin %s answered %s with a structured content of %.1f MiB, past the %d MiB juju checks against the tool's output schema (a client gets at most %d bytes of it); report it to the plugin's author", p.Name(), tool, float64(len(structured))/(1<<20), maxChecked>>20, abi.MaxStructured)
	}
	v, _ := p.outputs.LoadOrStore(tool, &outputSchema{})
	s := v.(*outputSchema)
	s.once.Do(func() {
		s.compiled, _ = manifest.CompileSchema(tool+".output.json", raw)
	})
	if s.compiled == nil {
		return abi.Errorf(abi.PluginFailed, "the output schema of %s does not compile, so its results cannot be checked; report it to the author of the plugin %s", tool, p.Name())
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(structured))
	if err == nil && !manifest.WithinCost(s.compiled, doc, manifest.MaxEvaluations) {
		return abi.Errorf(abi.PluginFailed, "the plugin %s answered %s with a structured content that its output schema would apply subschemas to more than %d times, too many for juju to check it; report it to the plugin's author", p.Name(), tool, manifest.MaxEvaluations)
	}
	if err == nil {
		err = s.compiled.Validate(doc)
	}
	if err == nil {
		return nil
	}
	where := "its structured content"
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		for len(ve.Causes) > 0 {
			ve = ve.Causes[0]
		}
		if len(ve.InstanceLocation) > 0 {
			where = "its structured content at " + abi.Quote("/"+strings.Join(ve.InstanceLocation, "/"))
		}
	}
	return abi.Errorf(abi.PluginFailed, "the plugin %s answered %s with a result whose %s does not fit the tool's output schema; report it to the plugin's author", p.Name(), tool, where)
}
