package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestReadableCall(t *testing.T) {
	for _, c := range []struct {
		msg     string
		refused bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"offset":1e400}}}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"a":[{"b":-2.5E+308}]}}}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"offset":1e300}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"text":"1e400"}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"offset":1e-400}}}`, false},
		// Outside the arguments: mcp-go's to answer.
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{},"_meta":{"x":1e400}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"offset":1e400}`, false},
	} {
		ctx, out := readableCall(context.Background(), []byte(c.msg))
		e := unreadableArguments(ctx)
		if (e != nil) != c.refused {
			t.Errorf("%s: refused %v, want %v", c.msg, e != nil, c.refused)
			continue
		}
		if !c.refused {
			if string(out) != c.msg {
				t.Errorf("%s: changed to %s", c.msg, out)
			}
			continue
		}
		if e.Code != abi.InvalidArgument || !strings.Contains(e.Message, "read_file") {
			t.Errorf("%s: %v", c.msg, e)
		}
		var m struct {
			ID     int `json:"id"`
			Params struct {
				Name      string         `json:"name"`
				Arguments map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.ID != 1 || m.Params.Name != "read_file" || len(m.Params.Arguments) != 0 {
			t.Errorf("%s: the call handed on is %s (%v)", c.msg, out, err)
		}
	}
}

// FuzzMayOverflow checks that mayOverflow misses no number that float64
// cannot hold: every number encoding/json refuses for its range is found.
func FuzzMayOverflow(f *testing.F) {
	for _, s := range []string{"1e400", "-0.5e309", "12345678901234567890e300", strings.Repeat("9", 309), "1" + strings.Repeat("0", 250) + ".5e80", "2e10", "0.1", "1.7976931348623157e308", "1.8e308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		err := json.Unmarshal([]byte(s), &v)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && !mayOverflow([]byte(`{"n":`+s+`}`)) {
			t.Errorf("missed %q", s)
		}
	})
}
