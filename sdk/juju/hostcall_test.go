//go:build !wasip1

package juju

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// withHost replaces the host for one test.
func withHost(t *testing.T, h func(fn string, header, body []byte) (respHeader, respBody []byte)) {
	t.Helper()
	prev := testHost
	testHost = func(fn string, frame []byte) []byte {
		header, body, err := abi.DecodeFrame(frame)
		if err != nil {
			t.Fatalf("the SDK sent a malformed frame to %s", fn)
		}
		rh, rb := h(fn, header, body)
		return abi.EncodeFrame(rh, rb)
	}
	t.Cleanup(func() { testHost = prev })
}

func TestReadFileRoundTrip(t *testing.T) {
	withHost(t, func(fn string, header, _ []byte) ([]byte, []byte) {
		var req abi.ReadRequest
		if fn != abi.FnFSRead || json.Unmarshal(header, &req) != nil || req.Path != "a.txt" || req.Line != 2 {
			t.Fatalf("request %s %s", fn, header)
		}
		return []byte(`{"path":"a.txt","size":12,"modTime":"x","firstLine":2,"lineCount":1,"totalLines":3}`), []byte("two\n")
	})
	res, body, err := ReadFile(abi.ReadRequest{Path: "a.txt", Line: 2, Lines: 1})
	if err != nil || string(body) != "two\n" || res.TotalLines != 3 || res.Size != 12 {
		t.Fatalf("got %+v %q %v", res, body, err)
	}
}

func TestHostErrorsKeepTheirCode(t *testing.T) {
	withHost(t, func(string, []byte, []byte) ([]byte, []byte) {
		return []byte(`{"error":{"code":"SECRET_DENIED","message":".env is a secret; it cannot be read"}}`), nil
	})
	_, err := Stat(abi.StatRequest{Path: ".env"})
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.SecretDenied || !IsCode(err, abi.SecretDenied) {
		t.Fatalf("got %v", err)
	}
	if _, err := ListDir(abi.ListRequest{}); !IsCode(err, abi.SecretDenied) {
		t.Fatalf("ListDir: %v", err)
	}
	if _, err := Glob(abi.GlobRequest{Pattern: "*"}); !IsCode(err, abi.SecretDenied) {
		t.Fatalf("Glob: %v", err)
	}
}

func TestMalformedHostAnswers(t *testing.T) {
	prev := testHost
	t.Cleanup(func() { testHost = prev })
	for name, answer := range map[string][]byte{
		"not a frame":     {1, 2},
		"header not JSON": abi.EncodeFrame([]byte("{"), nil),
	} {
		testHost = func(string, []byte) []byte { return answer }
		if _, err := Stat(abi.StatRequest{Path: "a"}); !IsCode(err, abi.Internal) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	testHost = nil
	if _, err := Stat(abi.StatRequest{Path: "a"}); !errors.Is(err, errNoHost) {
		t.Errorf("no host: got %v", err)
	}
}
