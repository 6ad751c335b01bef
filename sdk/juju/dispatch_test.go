//go:build !wasip1

package juju

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"required"`
	How  string `json:"how,omitempty" enum:"ok,coded,wrapped,plain,panic,badtype,nil,image" default:"ok"`
}

type echoOut struct {
	Text string `json:"text"`
}

// logged collects what the SDK logs through the juju_log host function.
var logged struct {
	sync.Mutex
	lines []string
}

func init() {
	testHost = func(fn string, frame []byte) []byte {
		if fn != abi.FnLog {
			return abi.EncodeFrame([]byte(`{"error":{"code":"CAPABILITY_DENIED","message":"no"}}`), nil)
		}
		h, _, _ := abi.DecodeFrame(frame)
		var req abi.LogRequest
		json.Unmarshal(h, &req)
		logged.Lock()
		logged.lines = append(logged.lines, req.Level+": "+req.Message)
		logged.Unlock()
		return abi.EncodeFrame([]byte(`{}`), nil)
	}
	Tool("test_echo", ToolOptions{
		Title:       "Echo",
		Description: "Echoes.",
		Tier:        abi.TierRead,
		Annotations: ReadOnly(),
		Output:      echoOut{},
	}, func(c *Call, in echoArgs) (*Result, error) {
		switch in.How {
		case "coded":
			return nil, Errorf(abi.NotFound, "no %s here; list the folder first", in.Text)
		case "wrapped":
			return nil, fmt.Errorf("reading: %w", Errorf(abi.SecretDenied, "that file is a secret"))
		case "plain":
			return nil, errors.New("/home/owner/private/path exploded")
		case "panic":
			var m map[string]int
			m["boom"]++
		case "badtype":
			return Text("x").WithStructured(struct{ X int }{1}), nil
		case "nil":
			return nil, nil
		case "image":
			return Image([]byte{1, 2}, "image/png").AddText(in.Text), nil
		}
		return Text(c.Tool() + ": " + in.Text).WithStructured(&echoOut{Text: in.Text}), nil
	})
}

func call(t *testing.T, tool, args string) abi.CallResult {
	t.Helper()
	req := abi.EncodeCall(tool, []byte(args))
	var res abi.CallResult
	if err := json.Unmarshal(resolve(t, serveCall(req).bytes()), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestServeCall(t *testing.T) {
	tests := []struct {
		name, tool, args string
		code             abi.Code
		msg              string // substring of the error message, or of the first text
	}{
		{"success", "test_echo", `{"text":"hi"}`, "", "test_echo: hi"},
		{"coded error keeps its code", "test_echo", `{"text":"a.txt","how":"coded"}`, abi.NotFound, "no a.txt here; list the folder first"},
		{"wrapped error keeps its code", "test_echo", `{"text":"x","how":"wrapped"}`, abi.SecretDenied, "that file is a secret"},
		{"plain error is internal", "test_echo", `{"text":"x","how":"plain"}`, abi.Internal, "failed unexpectedly"},
		{"panic is internal", "test_echo", `{"text":"x","how":"panic"}`, abi.Internal, "a bug in the plugin"},
		{"wrong structured type", "test_echo", `{"text":"x","how":"badtype"}`, abi.Internal, "malformed result"},
		{"bad arguments", "test_echo", `{"txt":"x"}`, abi.InvalidArgument, `unknown argument "txt"`},
		{"unknown tool", "nope", `{}`, abi.InvalidArgument, `no tool "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tt.tool, tt.args)
			if tt.code == "" {
				if res.Error != nil {
					t.Fatalf("error %v", res.Error)
				}
				if len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, tt.msg) {
					t.Fatalf("content %+v", res.Content)
				}
				return
			}
			if res.Error == nil || res.Error.Code != tt.code || !strings.Contains(res.Error.Message, tt.msg) {
				t.Fatalf("want %s %q, got %+v", tt.code, tt.msg, res.Error)
			}
			if strings.Contains(res.Error.Message, "/home/owner") {
				t.Fatalf("internal detail leaked: %q", res.Error.Message)
			}
		})
	}
}

func TestServeCallStructuredAndImages(t *testing.T) {
	res := call(t, "test_echo", `{"text":"hi"}`)
	if string(res.Structured) != `{"text":"hi"}` {
		t.Fatalf("structured %s", res.Structured)
	}
	res = call(t, "test_echo", `{"text":"cap","how":"image"}`)
	if len(res.Content) != 2 || res.Content[0].Type != "image" || res.Content[0].MimeType != "image/png" || res.Content[1].Text != "cap" {
		t.Fatalf("content %+v", res.Content)
	}
	res = call(t, "test_echo", `{"text":"x","how":"nil"}`)
	if res.Error != nil || len(res.Content) != 0 {
		t.Fatalf("nil result: %+v", res)
	}
}

func TestInternalErrorsAreLogged(t *testing.T) {
	call(t, "test_echo", `{"text":"x","how":"plain"}`)
	call(t, "test_echo", `{"text":"x","how":"panic"}`)
	logged.Lock()
	defer logged.Unlock()
	all := strings.Join(logged.lines, "\n")
	if !strings.Contains(all, "error: tool test_echo failed: /home/owner/private/path exploded") {
		t.Errorf("plain error not logged: %s", all)
	}
	if !strings.Contains(all, "tool test_echo panicked: assignment to entry in nil map") {
		t.Errorf("panic not logged: %s", all)
	}
}

func TestDescribe(t *testing.T) {
	d, err := Describe()
	if err != nil {
		t.Fatal(err)
	}
	var spec *abi.ToolSpec
	for i := range d.Tools {
		if d.Tools[i].Name == "test_echo" {
			spec = &d.Tools[i]
		}
	}
	if spec == nil {
		t.Fatalf("test_echo not described: %+v", d)
	}
	if spec.Title != "Echo" || spec.Tier != abi.TierRead || !spec.Annotations.ReadOnly || !spec.Annotations.Idempotent {
		t.Errorf("spec %+v", spec)
	}
	if !strings.Contains(string(spec.InputSchema), `"required":["text"]`) || !strings.Contains(string(spec.OutputSchema), `"text"`) {
		t.Errorf("schemas %s %s", spec.InputSchema, spec.OutputSchema)
	}
}

// A tool of another plugin the module serves is described under that
// plugin, not among the module's own tools, and is served like any other.
func TestDescribeOtherPlugin(t *testing.T) {
	Tool("test_other", ToolOptions{Title: "Other", Description: "Another plugin's.", Tier: abi.TierExec, Plugin: "test-other"},
		func(c *Call, in echoArgs) (*Result, error) { return Text("other " + in.Text), nil })
	d, err := Describe()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Tools {
		if s.Name == "test_other" {
			t.Fatal("test_other is listed among the module's own tools")
		}
	}
	other := d.Plugins["test-other"]
	if len(other) != 1 || other[0].Name != "test_other" || other[0].Tier != abi.TierExec || other[0].Title != "Other" {
		t.Fatalf("plugins: %+v", d.Plugins)
	}
	if len(d.Plugins) != 1 {
		t.Errorf("plugins: %+v", d.Plugins)
	}
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"plugins":{"test-other":[{"name":"test_other"`) {
		t.Errorf("json: %s", raw)
	}
	res := call(t, "test_other", `{"text":"hi"}`)
	if res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != "other hi" {
		t.Errorf("call: %+v", res)
	}
}

func TestToolRegistrationPanics(t *testing.T) {
	h := func(*Call, echoArgs) (*Result, error) { return nil, nil }
	for name, f := range map[string]func(){
		"bad name":   func() { Tool("Bad-Name", ToolOptions{}, h) },
		"duplicate":  func() { Tool("test_echo", ToolOptions{}, h) },
		"not struct": func() { Tool("test_str", ToolOptions{}, func(*Call, string) (*Result, error) { return nil, nil }) },
		"bad plugin": func() { Tool("test_badplugin", ToolOptions{Plugin: "Core_Exec"}, h) },
		"dash first": func() { Tool("test_dashplugin", ToolOptions{Plugin: "-x"}, h) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// appenderOut writes its own JSON (JSONAppender).
type appenderOut struct{ Items []string }

func (o *appenderOut) AppendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"items":[`...)
	for i, s := range o.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, s)
	}
	return append(b, "]}"...), true
}

// TestStructuredBufferIsReused holds the structured content a JSONAppender
// writes to a buffer kept from call to call: no allocation for it, each
// call's content its own, and a buffer grown past its bound let go.
func TestStructuredBufferIsReused(t *testing.T) {
	tl := &tool{name: "test_appender", out: deref(reflect.TypeOf(&appenderOut{}))}
	small := (&Result{}).WithStructured(&appenderOut{Items: []string{"a", "b"}})
	if n := testing.AllocsPerRun(100, func() { tl.encode(small, &body{}) }); n > 1 {
		t.Errorf("encoding a small structured content made %.0f allocations, want 1 (the CallResult)", n)
	}
	first := string(tl.encode(small, &body{}).Structured)
	big := (&Result{}).WithStructured(&appenderOut{Items: []string{strings.Repeat("x", maxStructuredBuf)}})
	second := tl.encode(big, &body{}).Structured
	if first != `{"items":["a","b"]}` || len(second) != maxStructuredBuf+len(`{"items":[""]}`) {
		t.Fatalf("structured contents %q and %d bytes", first, len(second))
	}
	if cap(structuredBuf) > maxStructuredBuf {
		t.Fatalf("a buffer of %d bytes was kept, more than %d", cap(structuredBuf), maxStructuredBuf)
	}
	if got := string(tl.encode(small, &body{}).Structured); got != first || string(second[:10]) != `{"items":[` {
		t.Fatalf("after a large content: %q, and the large one now starts %q", got, second[:10])
	}
}
