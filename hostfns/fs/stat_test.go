package fs

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestStat(t *testing.T) {
	f := newFixture(t, Options{})
	sum := sha256.Sum256([]byte("hello\nworld\n"))
	hash := hex.EncodeToString(sum[:])
	for _, c := range []struct {
		req  abi.StatRequest
		want abi.StatResult
	}{
		{abi.StatRequest{Path: "a.txt"}, abi.StatResult{Path: "a.txt", Type: "file", Size: 12, Mode: "-rw-r--r--"}},
		{abi.StatRequest{Path: "a.txt", Hash: true}, abi.StatResult{Path: "a.txt", Type: "file", Size: 12, Mode: "-rw-r--r--", SHA256: hash}},
		{abi.StatRequest{Path: "link-a", Hash: true}, abi.StatResult{Path: "link-a", Type: "file", Size: 12, Mode: "-rw-r--r--", SHA256: hash, Link: "a.txt"}},
		{abi.StatRequest{Path: "sub", Hash: true}, abi.StatResult{Path: "sub", Type: "dir", Mode: "drwxr-xr-x"}},
		{abi.StatRequest{Path: "link-sub"}, abi.StatResult{Path: "link-sub", Type: "dir", Mode: "drwxr-xr-x", Link: "sub"}},
		{abi.StatRequest{Path: "."}, abi.StatResult{Path: ".", Type: "dir", Mode: "drwxr-xr-x"}},
	} {
		var res abi.StatResult
		f.call(t, abi.FnFSStat, c.req, &res)
		noErr(t, "stat "+c.req.Path, res.Status)
		if res.ModTime == "" {
			t.Errorf("stat %s: no modTime", c.req.Path)
		}
		res.ModTime = ""
		if res != c.want {
			t.Errorf("stat %+v:\n got  %+v\n want %+v", c.req, res, c.want)
		}
	}
}

func TestStatErrors(t *testing.T) {
	f := newFixture(t, Options{})
	for _, c := range []struct {
		req  any
		code abi.Code
	}{
		{abi.StatRequest{Path: ".env"}, abi.SecretDenied},
		{abi.StatRequest{Path: ".env", Hash: true}, abi.SecretDenied},
		{abi.StatRequest{Path: "link-secret", Hash: true}, abi.SecretDenied},
		{abi.StatRequest{Path: "data/key-copy.txt", Hash: true}, abi.SecretDenied},
		{abi.StatRequest{Path: "data/key-copy.txt"}, abi.SecretDenied},
		{abi.StatRequest{Path: "link-out"}, abi.PathDenied},
		{abi.StatRequest{Path: "dangling"}, abi.NotFound},
		{abi.StatRequest{Path: "nope"}, abi.NotFound},
		{`{"path":"a.txt","hash":1}`, abi.InvalidArgument},
		{`{"path":"a.txt","sha":true}`, abi.InvalidArgument},
	} {
		var res abi.StatResult
		f.call(t, abi.FnFSStat, c.req, &res)
		f.wantErr(t, "stat "+toString(c.req), res.Status, c.code)
	}
}
