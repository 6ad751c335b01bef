//go:build !wasip1

package juju

import (
	"encoding/json"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestFetchRoundTrip(t *testing.T) {
	withHost(t, func(fn string, header, _ []byte) ([]byte, []byte) {
		var req abi.FetchRequest
		if fn != abi.FnFetch || json.Unmarshal(header, &req) != nil || req.URL != "https://example.com/" || req.Format != abi.FetchText || req.MaxBytes != 10 {
			t.Fatalf("request %s %s", fn, header)
		}
		return []byte(`{"url":"https://example.com/","finalUrl":"https://example.com/","status":200,"statusText":"200 OK","contentType":"text/html","kind":"html","format":"text","bytes":10,"title":"Ex"}`), []byte("Example\n")
	})
	res, body, err := Fetch(abi.FetchRequest{URL: "https://example.com/", Format: abi.FetchText, MaxBytes: 10})
	if err != nil || string(body) != "Example\n" || res.StatusCode != 200 || res.Title != "Ex" || res.Kind != abi.FetchKindHTML {
		t.Fatalf("got %+v %q %v", res, body, err)
	}
	withHost(t, func(string, []byte, []byte) ([]byte, []byte) {
		return []byte(`{"error":{"code":"SSRF_BLOCKED","message":"169.254.169.254 is cloud metadata"}}`), nil
	})
	if _, _, err := Fetch(abi.FetchRequest{URL: "https://169.254.169.254/"}); !IsCode(err, abi.SSRFBlocked) {
		t.Fatalf("got %v", err)
	}
}
