package test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// spec10Codes are the error codes SPEC §10 names.
var spec10Codes = []string{"INVALID_ARGUMENT", "NOT_FOUND", "PATH_DENIED", "SECRET_DENIED",
	"CAPABILITY_DENIED", "AMBIGUOUS_EDIT", "NO_MATCH", "FILE_CHANGED", "CONFLICT", "TOO_LARGE",
	"TIMEOUT", "APPROVAL_DENIED", "APPROVAL_PENDING", "SANDBOX_UNAVAILABLE", "FETCH_DISABLED",
	"SSRF_BLOCKED", "PLUGIN_FAILED", "INTERNAL"}

// propSchema is as much of a property's schema as the mutations need.
type propSchema struct {
	Type       any                    `json:"type"`
	Enum       []any                  `json:"enum"`
	Minimum    *float64               `json:"minimum"`
	MinLength  *int                   `json:"minLength"`
	MinItems   *int                   `json:"minItems"`
	Items      *propSchema            `json:"items"`
	Properties map[string]*propSchema `json:"properties"`
	Required   []string               `json:"required"`
}

func (p *propSchema) types() []string {
	switch t := p.Type.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			s, _ := x.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// fill is a value that fits p, as far as its type, enum and minimums go.
func (p *propSchema) fill() any {
	if p == nil {
		return "a.txt"
	}
	if len(p.Enum) > 0 {
		return p.Enum[0]
	}
	switch p.types()[0] {
	case "integer", "number":
		if p.Minimum != nil {
			return *p.Minimum
		}
		return 1
	case "boolean":
		return false
	case "array":
		n := 1
		if p.MinItems != nil && *p.MinItems > n {
			n = *p.MinItems
		}
		out := make([]any, n)
		for i := range out {
			out[i] = p.Items.fill()
		}
		return out
	case "object":
		out := map[string]any{}
		for _, r := range p.Required {
			out[r] = p.Properties[r].fill()
		}
		return out
	}
	if p.MinLength != nil && *p.MinLength > 5 {
		return strings.Repeat("a", *p.MinLength)
	}
	return "a.txt"
}

// wrongTypes are values of a JSON type p does not admit.
func (p *propSchema) wrongTypes() map[string]any {
	admits := p.types()
	out := map[string]any{}
	for name, v := range map[string]any{
		"string":  "7",
		"integer": 7,
		"number":  json.RawMessage("7.5"),
		"boolean": true,
		"array":   []any{"a.txt"},
		"object":  map[string]any{"a": "a.txt"},
	} {
		if slices.Contains(admits, name) || name == "integer" && slices.Contains(admits, "number") {
			continue
		}
		out["a "+name] = v
	}
	return out
}

// nested is n arrays (or objects) one inside the other.
func nested(n int, object bool) json.RawMessage {
	open, end := "[", "]"
	if object {
		open, end = `{"a":`, "}"
	}
	return json.RawMessage(strings.Repeat(open, n) + "1" + strings.Repeat(end, n))
}

// mutation is one call of a tool with arguments that break its schema
// (bad) or stretch it (edge: they may fit, and the tool runs).
type mutation struct {
	name string
	args any
	bad  bool
}

// mutations are the hostile calls of a tool whose input schema is raw.
func mutations(t *testing.T, raw []byte) []mutation {
	t.Helper()
	var sch propSchema
	if err := json.Unmarshal(raw, &sch); err != nil {
		t.Fatalf("input schema %s: %v", raw, err)
	}
	base := func() map[string]any {
		m := map[string]any{}
		for _, r := range sch.Required {
			m[r] = sch.Properties[r].fill()
		}
		return m
	}
	with := func(k string, v any) map[string]any { m := base(); m[k] = v; return m }
	out := []mutation{
		{"unknown argument", with("zzNoSuchArgument", 1), true},
		{"arguments an array", []any{base()}, true},
		{"arguments a string", "a.txt", true},
		{"arguments a number", json.RawMessage("1e309"), true},
		{"arguments nested 5000 deep", nested(5000, false), true},
		{"unknown argument nested 5000 deep", with("zzDeep", nested(5000, true)), true},
		{"unknown argument holding 1e309", with("zzBig", json.RawMessage("1e309")), true},
	}
	if len(sch.Required) > 0 {
		out = append(out, mutation{"required missing", map[string]any{}, true})
		for _, r := range sch.Required {
			m := base()
			delete(m, r)
			out = append(out, mutation{"without " + r, m, true})
		}
	}
	names := make([]string, 0, len(sch.Properties))
	for k := range sch.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		p := sch.Properties[k]
		for what, v := range p.wrongTypes() {
			out = append(out, mutation{k + " " + what, with(k, v), true})
		}
		out = append(out,
			mutation{k + " null", with(k, nil), true},
			mutation{k + " 1e309", with(k, json.RawMessage("1e309")), true},
			mutation{k + " -1e309", with(k, json.RawMessage("-1e309")), true},
			mutation{k + " nested arrays", with(k, nested(5000, false)), !slices.Contains(p.types(), "array")},
			mutation{k + " nested objects", with(k, nested(5000, true)), !slices.Contains(p.types(), "object")},
		)
		switch p.types()[0] {
		case "integer":
			out = append(out,
				mutation{k + " 2^63", with(k, json.RawMessage("9223372036854775808")), true},
				mutation{k + " -2^63-1", with(k, json.RawMessage("-9223372036854775809")), true},
				mutation{k + " 1.5", with(k, json.RawMessage("1.5")), true},
				mutation{k + " -0", with(k, json.RawMessage("-0")), false},
				mutation{k + " 1e2", with(k, json.RawMessage("1e2")), false},
				mutation{k + " 2^53+1", with(k, json.RawMessage("9007199254740993")), false},
				mutation{k + " NaN", with(k, "NaN"), true},
				mutation{k + " Infinity", with(k, "Infinity"), true},
				mutation{k + " -1", with(k, -1), false},
			)
		case "string":
			if len(p.Enum) > 0 {
				out = append(out, mutation{k + " not in its enum", with(k, "zz-not-one"), true})
				continue
			}
			out = append(out,
				mutation{k + " empty", with(k, ""), false},
				mutation{k + " 1 MiB", with(k, strings.Repeat("x", 1<<20)), false},
				mutation{k + " NUL", with(k, "a\x00b"), false},
				mutation{k + " lone surrogate", with(k, json.RawMessage(`"\ud800"`)), false},
				mutation{k + " NaN", with(k, "NaN"), false},
			)
		case "array":
			out = append(out,
				mutation{k + " of nulls", with(k, []any{nil}), true},
				mutation{k + " of 100,000", with(k, make([]any, 100000)), true},
			)
		}
	}
	return out
}

// callAny calls tool with arguments of any JSON shape.
func (s *session) callAny(tool string, args any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	return s.c.CallTool(ctx, req)
}

// Every tool juju lists, called with arguments that break its input
// schema in every way a hostile or confused client might (each argument of
// the wrong type, null, nested thousands deep, numbers past float64 or
// int64, a required one missing, one unknown, the arguments not an object)
// answers a tool result: isError, INVALID_ARGUMENT and a message that
// tells the model how to call again (SEP-1303). Arguments that stretch the
// schema but may fit it (a 1 MiB string, a NUL, a lone surrogate, -0,
// 2^53+1) run the tool, which answers a result too, and any error among
// them carries a SPEC §10 code and a message. Every result, refusal or
// not, fits the tool's output schema as a strict client checks it
// (shapeCheck). Never a JSON-RPC error, and juju serves a good call after
// all of them. Over stdio and over HTTP.
func TestEveryToolRefusesBadArgumentsAsResults(t *testing.T) {
	// The calls that fit name a.txt wherever a string goes: they may
	// write, move or delete it, never keep.txt.
	root := workspace(t, map[string]string{"a.txt": "hello\n", "keep.txt": "hello\n"})
	// Commands that fit wait for an approval no one gives: briefly.
	home := func(t *testing.T) string {
		h := t.TempDir()
		writeConfig(t, h, "[approvals]\ntimeoutMs = 1\naskInClient = false\n")
		return h
	}
	t.Run("stdio", func(t *testing.T) {
		checkEveryTool(t, startHome(t, home(t), root))
	})
	t.Run("http", func(t *testing.T) {
		srv := startServeHome(t, home(t), root)
		checkEveryTool(t, srv.connect(t, "juju-e2e", mcp.LATEST_PROTOCOL_VERSION))
	})
}

func checkEveryTool(t *testing.T, s *session) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) < 40 {
		t.Fatalf("juju lists %d tools", len(list.Tools))
	}
	_, out := strictSchemas(t, wireToolsList(t))
	check := shapeCheck{t: t, out: out}
	calls := 0
	for _, tool := range list.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		if tool.RawInputSchema != nil {
			raw, err = tool.RawInputSchema, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mutations(t, raw) {
			calls++
			res, err := s.callAny(tool.Name, m.args)
			what := fmt.Sprintf("%s, %s", tool.Name, m.name)
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("%s: no answer in 60 s", what)
				}
				t.Errorf("%s: want a tool result, got the JSON-RPC error %v", what, err)
				continue
			}
			check.result(what, tool.Name, res, nil)
			if !res.IsError {
				if m.bad {
					t.Errorf("%s: want INVALID_ARGUMENT, the call succeeded: %s", what, abbrev(text(res)))
				}
				continue
			}
			got := structured(t, res)
			code, _ := got["code"].(string)
			msg, _ := got["message"].(string)
			switch {
			case !slices.Contains(spec10Codes, code):
				t.Errorf("%s: code %q is not one of SPEC §10: %s", what, code, abbrev(text(res)))
			case text(res) != code+": "+msg:
				t.Errorf("%s: the text does not begin with the code: %s", what, abbrev(text(res)))
			case m.bad && code != "INVALID_ARGUMENT":
				t.Errorf("%s: want INVALID_ARGUMENT, got %s", what, abbrev(text(res)))
			case m.bad && !strings.Contains(msg, "call again") && !strings.Contains(msg, "send a number within"):
				t.Errorf("%s: the message does not say how to call again: %s", what, abbrev(msg))
			case len(msg) < 20 || len(msg) > 4000:
				t.Errorf("%s: a message of %d bytes: %s", what, len(msg), abbrev(msg))
			}
		}
	}
	t.Logf("%d calls of %d tools", calls, len(list.Tools))
	if got := s.ok("read_file", map[string]any{"path": "keep.txt"}); !strings.Contains(got, "hello") {
		t.Fatalf("read_file after the bad calls: %s", got)
	}
}

func abbrev(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
