package test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestBatchesOnlyWhereTheProtocolHasThem: JSON-RPC batches are served to
// clients of MCP 2024-11-05 and 2025-03-26, and refused (-32600, id null,
// nothing in them run) to those of 2025-06-18 and 2025-11-25, which send each
// message alone (stdio: "individual JSON-RPC requests, notifications, or
// responses"; HTTP: a POST body "MUST be a single JSON-RPC" message). Over
// stdio the version is the one initialize agreed; over HTTP the
// Mcp-Protocol-Version header's, a request without it being of 2025-03-26.
func TestBatchesOnlyWhereTheProtocolHasThem(t *testing.T) {
	batch := func(path string) string {
		return `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"` + path + `","content":"x"}}}]`
	}
	versions := []struct {
		version string
		served  bool
	}{{"2024-11-05", true}, {"2025-03-26", true}, {"2025-06-18", false}, {"2025-11-25", false}}

	t.Run("stdio", func(t *testing.T) {
		for _, v := range versions {
			root := workspace(t, map[string]string{"a.txt": "alpha\n"})
			r := startRaw(t, root, "--mode", "trusted")
			if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", v.version, 1)); init["result"] == nil {
				t.Fatalf("initialize %s: %s", v.version, mustJSON(init))
			}
			io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			io.WriteString(r.in, batch("b.txt")+"\n")
			r.line(t, v.version+" batch", 30*time.Second)
			checkBatchAnswer(t, "stdio "+v.version, v.served, r.out.Bytes(), root, "b.txt")
		}
	})

	t.Run("http", func(t *testing.T) {
		root := workspace(t, map[string]string{"a.txt": "alpha\n"})
		srv := startServe(t, root, "--mode", "trusted")
		sid := srv.initSession(t, srv.bearer())
		headers := append([]struct {
			version string
			served  bool
		}{{"", true}}, versions...)
		for i, h := range headers {
			path := "h" + string(rune('a'+i)) + ".txt"
			hdr := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": h.version})
			res := postBatch(t, srv, batch(path), hdr)
			if !h.served {
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != 400 {
					t.Errorf("a batch with Mcp-Protocol-Version %q: %d %.300s, want 400", h.version, res.StatusCode, b)
				}
				checkBatchAnswer(t, "http "+h.version, false, b, root, path)
				continue
			}
			var ids []any
			sseMessages(t, res, func(m map[string]any) bool {
				ids = append(ids, m["id"])
				return len(ids) < 2
			})
			if len(ids) != 2 {
				t.Errorf("a batch with Mcp-Protocol-Version %q was answered for the ids %v, want 2 and 3", h.version, ids)
			}
			if _, err := statIn(root, path); err != nil {
				t.Errorf("a batch with Mcp-Protocol-Version %q did not write %s: %v", h.version, path, err)
			}
		}
	})
}

// checkBatchAnswer checks the answer to a batch of a ping (id 2) and a
// write of path (id 3): both answered and the file written when served,
// else one invalid-request error of id null and nothing written.
func checkBatchAnswer(t *testing.T, what string, served bool, answer []byte, root, path string) {
	t.Helper()
	if served {
		var got []map[string]any
		if err := json.Unmarshal(answer, &got); err != nil || len(got) != 2 || got[0]["id"] != 2.0 || got[1]["id"] != 3.0 || got[1]["result"] == nil {
			t.Errorf("%s: the batch was answered %.300s, want the answers to 2 and 3", what, answer)
		}
		if _, err := statIn(root, path); err != nil {
			t.Errorf("%s: the batch's write did not run: %v", what, err)
		}
		return
	}
	var got map[string]any
	if err := json.Unmarshal(answer, &got); err != nil {
		t.Errorf("%s: the batch was answered %.300s, want one error", what, answer)
		return
	}
	e, _ := got["error"].(map[string]any)
	if _, has := got["id"]; !has || got["id"] != nil || e == nil || e["code"] != float64(mcp.INVALID_REQUEST) || !strings.Contains(e["message"].(string), "no JSON-RPC batches") {
		t.Errorf("%s: the batch was answered %.300s, want an invalid request of id null", what, answer)
	}
	mustNotExist(t, root, path)
}
