package juju

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/jujutools/juju/sdk/abi"
)

// ToolOptions describe a tool beyond its name and argument type.
type ToolOptions struct {
	// Title is a short human-readable name ("Read file").
	Title string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Tier is abi.TierRead, abi.TierEdit or abi.TierExec.
	Tier string
	// Annotations are the MCP hints; a read-tier tool must set ReadOnly.
	Annotations abi.Annotations
	// Output, when set, is a value of the type of the tool's structured
	// content (e.g. MyResult{}); its schema becomes the tool's outputSchema
	// and results must carry that type.
	Output any
	// Plugin, in a module that serves several plugins, names the plugin
	// the tool belongs to; empty, the tool is the module's own plugin's.
	// The host routes a tool only to the plugin whose manifest lists it,
	// and each plugin's instances hold that plugin's grants alone: juju's
	// core module serves core and core-exec, whose tools set "core-exec".
	// Describe reports such tools under abi.Description.Plugins.
	Plugin string
}

// ReadOnly returns the annotations of a tool that only reads the workspace:
// read-only, idempotent, not destructive, closed world.
func ReadOnly() abi.Annotations {
	return abi.Annotations{ReadOnly: true, Idempotent: true}
}

// ReadTool returns the options of a tool that only reads: tier R, the
// ReadOnly annotations, and output (a value of its structured content's
// type, or nil) for the output schema.
func ReadTool(title, description string, output any) ToolOptions {
	return ToolOptions{Title: title, Description: description, Tier: abi.TierRead, Annotations: ReadOnly(), Output: output}
}

// Call is the context of one tool call.
type Call struct {
	tool string
}

// Tool is the name of the tool being called.
func (c *Call) Tool() string { return c.tool }

// tool is one registered tool.
type tool struct {
	name string
	call Call // every call's: a plugin serves one call at a time
	opts ToolOptions
	in   reflect.Type
	out  reflect.Type // nil without Output
	run  func(c *Call, args json.RawMessage) (*Result, error)
}

var (
	tools      []*tool
	toolByName = map[string]*tool{}
)

// validName reports whether name matches ^[a-z0-9_]{1,64}$ (SPEC §4).
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// validPluginName reports whether name matches ^[a-z0-9][a-z0-9-]{0,63}$,
// a manifest's name.
func validPluginName(name string) bool {
	if len(name) == 0 || len(name) > 64 || name[0] == '-' {
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// Tool registers a tool whose arguments decode into In, a struct type whose
// fields and tags are the tool's input schema. Call it from init or main;
// it panics on a bad name, a duplicate or an In that is not a struct, as
// those are mistakes in the plugin's code.
func Tool[In any](name string, opts ToolOptions, h func(c *Call, in In) (*Result, error)) {
	register(name, opts, reflect.TypeFor[In](), func(c *Call, raw json.RawMessage) (*Result, error) {
		var args In
		if err := decodeArgs(c.tool, raw, &args); err != nil {
			return nil, err
		}
		return h(c, args)
	})
}

// register is Tool's work that does not depend on In. Go compiles a
// generic function once per argument struct, so Tool holds only what must
// know In: with the checks in its body, its copies were 145 KB, nearly 4%
// of the core module's code.
func register(name string, opts ToolOptions, in reflect.Type, run func(c *Call, raw json.RawMessage) (*Result, error)) {
	if !validName(name) {
		panic(fmt.Sprintf("juju: tool name %q must match ^[a-z0-9_]{1,64}$", name))
	}
	if toolByName[name] != nil {
		panic(fmt.Sprintf("juju: tool %q registered twice", name))
	}
	if in.Kind() != reflect.Struct {
		panic(fmt.Sprintf("juju: the arguments of tool %q must be a struct, not %s", name, in))
	}
	if opts.Plugin != "" && !validPluginName(opts.Plugin) {
		panic(fmt.Sprintf("juju: the plugin %q of tool %q must match ^[a-z0-9][a-z0-9-]{0,63}$", opts.Plugin, name))
	}
	t := &tool{name: name, call: Call{tool: name}, opts: opts, in: in, run: run}
	if opts.Output != nil {
		t.out = deref(reflect.TypeOf(opts.Output))
	}
	tools = append(tools, t)
	toolByName[name] = t
}

// spec describes t for the manifest.
func (t *tool) spec() (abi.ToolSpec, error) {
	in, err := InputSchema(t.in)
	if err != nil {
		return abi.ToolSpec{}, fmt.Errorf("tool %s: %w", t.name, err)
	}
	s := abi.ToolSpec{
		Name:        t.name,
		Title:       t.opts.Title,
		Description: t.opts.Description,
		Tier:        t.opts.Tier,
		InputSchema: in,
		Annotations: t.opts.Annotations,
	}
	if t.out != nil {
		if s.OutputSchema, err = OutputSchema(t.out); err != nil {
			return abi.ToolSpec{}, fmt.Errorf("tool %s: %w", t.name, err)
		}
	}
	return s, nil
}

// Describe returns every registered tool and discoverer, as the
// juju_describe export reports them: the tools of another plugin the
// module serves (ToolOptions.Plugin) under Plugins.
func Describe() (*abi.Description, error) {
	d := &abi.Description{Tools: make([]abi.ToolSpec, 0, len(tools)), Discoverers: discovererSpecs()}
	for _, t := range tools {
		s, err := t.spec()
		if err != nil {
			return nil, err
		}
		if t.opts.Plugin == "" {
			d.Tools = append(d.Tools, s)
			continue
		}
		if d.Plugins == nil {
			d.Plugins = map[string][]abi.ToolSpec{}
		}
		d.Plugins[t.opts.Plugin] = append(d.Plugins[t.opts.Plugin], s)
	}
	return d, nil
}
