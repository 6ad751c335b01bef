package test

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// auditedIDs are request ids a hostile client may write: those JSON-RPC and
// MCP refuse (null, an object, an array, a boolean, a number Go cannot
// hold, none at all: a notification), by name, and those they allow
// however odd.
var auditedIDs = []struct {
	name, id string // id "": no id member
	runs     bool
}{
	{"null", `null`, false}, {"object", `{"a":1}`, false}, {"array", `[1]`, false},
	{"bool", `true`, false}, {"e400", `1e400`, false}, {"none", ``, false},
	{"float", `1.5`, true}, {"exp", `1e3`, true}, {"negzero", `-0`, true},
	{"big", `9007199254740993`, true}, {"numstr", `"5"`, true}, {"long", string(mustJSON(strings.Repeat("i", 100<<10))), true},
}

// oddCall is a tools/call of write_file with the id id, writing the file
// prefix-name.txt.
func oddCall(id, prefix, name string) string {
	idPart := ""
	if id != "" {
		idPart = `"id":` + id + `,`
	}
	return `{"jsonrpc":"2.0",` + idPart + `"method":"tools/call","params":{"name":"write_file","arguments":{"path":"` + prefix + "-" + name + `.txt","content":"x"}}}`
}

// TestOnlyRequestsWithAValidIDRunAndEachIsAudited: a tools/call whose id
// JSON-RPC and MCP refuse is an invalid request and runs nothing; one
// without an id is a notification and runs nothing; every other one runs,
// whatever its id, and is in the audit log once. Over stdio and HTTP,
// alone and in a batch.
func TestOnlyRequestsWithAValidIDRunAndEachIsAudited(t *testing.T) {
	check := func(t *testing.T, home, root string) {
		t.Helper()
		waitFor(t, "the audit of the calls that ran", func() bool {
			n := 0
			for _, c := range auditedIDs {
				if c.runs {
					n += 2
				}
			}
			return len(auditJSON(t, home, root)) >= n
		})
		var audited []string
		for _, g := range auditJSON(t, home, root) {
			audited = append(audited, g.Args)
		}
		all := strings.Join(audited, "\n")
		for _, c := range auditedIDs {
			for _, prefix := range []string{"one", "batch"} {
				file := prefix + "-" + c.name + ".txt"
				_, err := os.Stat(filepath.Join(root, file))
				if ran := err == nil; ran != c.runs {
					t.Errorf("the call of id %.20s (%s) ran: %v, want %v", c.id, prefix, ran, c.runs)
				}
				if n := strings.Count(all, `"`+file+`"`); n != map[bool]int{true: 1}[c.runs] {
					t.Errorf("the call of id %.20s (%s) is in the audit %d times:\n%s", c.id, prefix, n, all)
				}
			}
		}
		entries, _ := os.ReadDir(root)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		t.Logf("files: %v", names)
	}
	var batch []string
	for _, c := range auditedIDs {
		batch = append(batch, oddCall(c.id, "batch", c.name))
	}

	t.Run("stdio", func(t *testing.T) {
		root := workspace(t, map[string]string{"a.txt": "x\n"})
		r := startRaw(t, root, "--mode", "trusted")
		if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
			t.Fatalf("initialize: %s", mustJSON(init))
		}
		io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		for _, c := range auditedIDs {
			io.WriteString(r.in, oddCall(c.id, "one", c.name)+"\n")
		}
		io.WriteString(r.in, "["+strings.Join(batch, ",")+"]\n")
		// Every answer comes before juju ends with its input.
		r.in.Close()
		done := make(chan error, 1)
		go func() {
			for r.out.Scan() {
			}
			done <- r.cmd.Wait()
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("juju stdio: %v", err)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("juju did not end with its input")
		}
		check(t, r.home, root)
	})

	t.Run("http", func(t *testing.T) {
		root := workspace(t, map[string]string{"a.txt": "x\n"})
		srv := startServe(t, root, "--mode", "trusted")
		sid := srv.initSession(t, srv.bearer())
		hdr := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})
		for _, c := range auditedIDs {
			if res, body := srv.raw(t, "POST", "/mcp", oddCall(c.id, "one", c.name), hdr); res.StatusCode != 200 && res.StatusCode != 202 {
				t.Fatalf("id %.20s: %d %.300s", c.id, res.StatusCode, body)
			}
		}
		if res, body := srv.raw(t, "POST", "/mcp", "["+strings.Join(batch, ",")+"]", hdr); res.StatusCode != 200 {
			t.Fatalf("the batch: %d %.300s", res.StatusCode, body)
		}
		check(t, srv.home, root)
	})
}
