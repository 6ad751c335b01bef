package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

const testSchema = `{"type":"object","properties":{
	"path":{"type":"string","description":"The file to read.","minLength":1},
	"offset":{"type":"integer","minimum":1,"maximum":9007199254740991},
	"ratio":{"type":"number","exclusiveMinimum":0,"maximum":0.5},
	"mode":{"type":"string","enum":["fast","slow"]},
	"ops":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"object","properties":{
		"op":{"type":"string"},"oldString":{"type":"string"}},"required":["op"],"additionalProperties":false}}
	},"required":["path"],"additionalProperties":false}`

// Each problem names the argument at fault and what it should be; an
// unknown name says the known one it most likely meant.
func TestArgumentsMessages(t *testing.T) {
	for _, c := range []struct {
		name, args string
		want       []string
	}{
		{"missing", `{}`, []string{`the argument "path" is required (The file to read)`}},
		{"type", `{"path":42}`, []string{`the argument "path" must be a string, not a number`}},
		{"integer", `{"path":"a","offset":1.5}`, []string{`the argument "offset" must be an integer, not a number`}},
		{"minimum", `{"path":"a","offset":-3}`, []string{`the argument "offset" must be at least 1 (got -3)`}},
		{"huge", `{"path":"a","offset":1e308}`, []string{`the argument "offset" must be at most 9007199254740991 (got 1e+308)`}},
		{"long", `{"path":"a","offset":-123456789012345678901234567890}`, []string{`must be at least 1 (got -1.2345678901234568e+29)`}},
		{"fraction", `{"path":"a","ratio":0.75}`, []string{`the argument "ratio" must be at most 0.5 (got 0.75)`}},
		{"tiny", `{"path":"a","ratio":-1e-300}`, []string{`the argument "ratio" must be more than 0 (got -1e-300)`}},
		{"minLength", `{"path":""}`, []string{`the argument "path" must be at least 1 character long (got 0)`}},
		{"minItems", `{"path":"a","ops":[]}`, []string{`the argument "ops" must have at least 1 item (got 0)`}},
		{"enum", `{"path":"a","mode":"warp"}`, []string{`the argument "mode" must be one of "fast", "slow", not "warp"`}},
		{"unknown", `{"path":"a","bogus":1}`, []string{`unknown argument "bogus"; t takes only: path, offset, ratio, mode, ops`}},
		{"snake case", `{"path":"a","Off_Set":2}`, []string{`unknown argument "Off_Set" (did you mean "offset"?)`}},
		{"inside a name", `{"file_path":"a"}`, []string{`unknown argument "file_path" (did you mean "path"?)`, `the argument "path" is required`}},
		{"unknown first", `{"file_path":"a"}`, []string{`: unknown argument "file_path"`}},
		{"nested", `{"path":"a","ops":[{"op":"x","old_string":"y"}]}`, []string{`unknown argument "ops[0].old_string" (did you mean "oldString"?); "ops[0]" takes only: op, oldString`}},
		{"nested required", `{"path":"a","ops":[{}]}`, []string{`the argument "ops[0].op" is required`}},
		{"maxItems", `{"path":"a","ops":[{"op":"a"},{"op":"b"},{"op":"c"}]}`, []string{`the argument "ops" must have at most 2 items (got 3)`}},
		{"not an object", `"read it"`, []string{`the arguments must be a JSON object, not a string`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := &inputSchema{raw: []byte(testSchema)}
			var args any
			if err := json.Unmarshal([]byte(c.args), &args); err != nil {
				t.Fatal(err)
			}
			e := in.check("t", args)
			if e == nil || e.Code != abi.InvalidArgument {
				t.Fatalf("got %+v, want INVALID_ARGUMENT", e)
			}
			if !strings.HasPrefix(e.Message, "the arguments do not fit the input schema of t: ") || !strings.HasSuffix(e.Message, ". Correct them and call again") {
				t.Errorf("message frame: %s", e.Message)
			}
			for _, w := range c.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("message lacks %q:\n%s", w, e.Message)
				}
			}
		})
	}
	in := &inputSchema{raw: []byte(testSchema)}
	if e := in.check("t", map[string]any{"path": "a", "offset": float64(2)}); e != nil {
		t.Fatalf("valid arguments refused: %v", e)
	}
}

func TestNearest(t *testing.T) {
	known := []string{"path", "oldString", "newString", "replaceAll", "command", "cwd", "timeoutMs"}
	for in, want := range map[string]string{
		"old_string":  "oldString",
		"OLDSTRING":   "oldString",
		"file_path":   "path",
		"replace_all": "replaceAll",
		"cmd":         "command",
		"timeout":     "timeoutMs",
		"newStrng":    "newString",
		"zzz":         "",
		"x":           "",
	} {
		if got := nearest(in, known); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

// An array of 90,000 nulls where strings belong is 90,000 problems, and
// the distinct ones are found in one pass: a list searched for each made
// one call of exec_command (its args have no maxItems) hold a core for
// minutes. The message names maxProblems of them and counts the rest.
func TestManyProblemsAnswerPromptly(t *testing.T) {
	in := &inputSchema{raw: []byte(`{"type":"object","properties":{"args":{"type":"array","items":{"type":"string"}}}}`)}
	args := map[string]any{"args": make([]any, 90_000)}
	done := make(chan *abi.Error, 1)
	go func() { done <- in.check("t", args) }()
	select {
	case e := <-done:
		if e == nil || !strings.Contains(e.Message, `the argument "args[0]" must be a string, not null`) || !strings.Contains(e.Message, "and 89996 more") {
			t.Fatalf("got %+v", e)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the check of 90,000 nulls took more than a minute")
	}
}

// Arguments of more than maxArgumentValues JSON values are refused before
// the schema is checked, whether or not they fit it: the check builds an
// error for each item that does not, and 3 million of them (6 MB) cost
// minutes of CPU and 1.2 GB.
func TestTooManyArgumentValuesRefused(t *testing.T) {
	in := &inputSchema{raw: []byte(`{"type":"object","properties":{"args":{"type":"array","items":{"type":"string"}}}}`)}
	args := make([]any, maxArgumentValues)
	for i := range args {
		args[i] = "x"
	}
	// The object, the array and its items: maxArgumentValues in all.
	if e := in.check("t", map[string]any{"args": args[:maxArgumentValues-2]}); e != nil {
		t.Fatalf("%d values refused: %v", maxArgumentValues, e)
	}
	e := in.check("t", map[string]any{"args": args})
	if e == nil || e.Code != abi.InvalidArgument || !strings.Contains(e.Message, "the arguments of t hold more than 100000 JSON values") || !strings.HasSuffix(e.Message, "call again") {
		t.Fatalf("%d values: got %+v", maxArgumentValues+2, e)
	}
}
