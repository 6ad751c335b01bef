package fs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
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

// The hash covers the whole file whatever its size against the buffer
// (sized to the file, at most 256 KiB), and a file grown since its size
// was read is hashed whole too.
func TestStatHashSizes(t *testing.T) {
	f := newFixture(t, Options{})
	for _, size := range []int{0, 1, 511, 512, 513, 256<<10 - 1, 256 << 10, 256<<10 + 1, 600 << 10} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*7 + i>>9)
		}
		name := fmt.Sprintf("h%d.bin", size)
		if err := os.WriteFile(filepath.Join(f.ws, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		var res abi.StatResult
		f.call(t, abi.FnFSStat, abi.StatRequest{Path: name, Hash: true}, &res)
		noErr(t, "stat "+name, res.Status)
		if res.SHA256 != hex.EncodeToString(sum[:]) || res.Size != int64(size) {
			t.Errorf("%s: size %d, sha256 %s; want %d, %x", name, res.Size, res.SHA256, size, sum)
		}
	}
	if n := hashBuffer(1 << 30); n != 256<<10 {
		t.Errorf("the buffer of a 1 GiB file is %d bytes", n)
	}
}

// readHead reads a whole small file, a head of a large one, and reads on
// where the stat's size does not vouch for a short read.
func TestReadHead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	data := []byte("0123456789abcdef")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		head, size int
		want       int
	}{
		{"whole, one byte to spare", 17, 16, 16},
		{"a head of a larger file", 8, 16, 8},
		{"a stat of 0", 64, 0, 16},
		{"a stat short of the file", 64, 4, 16},
	} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, c.head)
		n, err := readHead(f, head, int64(c.size))
		f.Close()
		if err != nil || n != c.want || string(head[:n]) != string(data[:c.want]) {
			t.Errorf("%s: %d bytes %q, %v; want %d", c.name, n, head[:n], err, c.want)
		}
	}
}
