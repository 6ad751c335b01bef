package test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCancellingAStringIDStopsNoNumber: the ids 5 and "5" are two
// requests, and a cancellation names one of them. mcp-go found the request
// a cancellation names by the id's text, so cancelling "5" stopped the
// command of request 5, which the client never cancelled (and whose
// answer came all the same, as a TIMEOUT), and cancelling "7", in flight
// or not, stopped 7. Over stdio and HTTP, the string's request is
// stopped and the number's runs to its end.
func TestCancellingAStringIDStopsNoNumber(t *testing.T) {
	// Each command says it started, waits for the file go, and writes its
	// name once it ends: a stopped one never writes it.
	command := func(name string) string {
		return fmt.Sprintf("touch started-%s; while [ ! -e go ]; do sleep 0.05; done; echo %s > done-%s; echo ran-%s", name, name, name, name)
	}
	call := func(id, name string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"run_command","arguments":{"command":` + string(mustJSON(command(name))) + `,"timeoutMs":30000}}}`
	}
	cancel := func(id string) string {
		return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`
	}
	started := func(t *testing.T, root string, names ...string) {
		t.Helper()
		waitFor(t, "the commands to start", func() bool {
			for _, n := range names {
				if _, err := os.Stat(filepath.Join(root, "started-"+n)); err != nil {
					return false
				}
			}
			return true
		})
	}
	check := func(t *testing.T, root string, answers map[string]string) {
		t.Helper()
		for _, n := range []string{"num5", "num7"} {
			if !strings.Contains(answers[n], "ran-"+n) {
				t.Errorf("the request %s, never cancelled, was answered %.300s", n, answers[n])
			}
			if _, err := os.Stat(filepath.Join(root, "done-"+n)); err != nil {
				t.Errorf("the command of %s, never cancelled, did not run to its end: %v", n, err)
			}
		}
		if _, err := os.Stat(filepath.Join(root, "done-str5")); err == nil {
			t.Errorf("the cancelled request \"5\" ran to its end")
		}
	}

	t.Run("stdio", func(t *testing.T) {
		root := workspace(t, map[string]string{"a.txt": "x\n"})
		r := startRawExec(t, root)
		for _, l := range []string{call(`5`, "num5"), call(`"5"`, "str5"), call(`7`, "num7")} {
			io.WriteString(r.in, l+"\n")
		}
		started(t, root, "num5", "str5", "num7")
		// mcp-go reads a method written with escapes as it reads one
		// without, and so must juju.
		io.WriteString(r.in, strings.Replace(cancel(`"5"`), "/cancelled", `\/\u0063ancelled`, 1)+"\n"+strings.Replace(cancel(`"7"`), "/", `\/`, 1)+"\n")
		// The cancellations are read before the ping is answered.
		if m := r.send(t, `{"jsonrpc":"2.0","id":"p","method":"ping"}`); m["id"] != "p" {
			t.Fatalf("ping: %s", mustJSON(m))
		}
		os.WriteFile(filepath.Join(root, "go"), nil, 0o644)
		answers := map[string]string{}
		for len(answers) < 2 {
			m := r.recv(t, "the calls not cancelled", 15*time.Second)
			switch m["id"] {
			case float64(5):
				answers["num5"] = string(mustJSON(m))
			case float64(7):
				answers["num7"] = string(mustJSON(m))
			default:
				t.Fatalf("an answer to %v, a request cancelled: %s", m["id"], mustJSON(m))
			}
		}
		check(t, root, answers)
	})

	t.Run("http", func(t *testing.T) {
		root := workspace(t, map[string]string{"a.txt": "x\n"})
		srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
		sid := srv.initSession(t, srv.bearer())
		hdr := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})
		var mu sync.Mutex
		answers, status := map[string]string{}, map[string]int{}
		var wg sync.WaitGroup
		for _, c := range []struct{ id, name string }{{`5`, "num5"}, {`"5"`, "str5"}, {`7`, "num7"}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, body := srv.raw(t, "POST", "/mcp", call(c.id, c.name), hdr)
				mu.Lock()
				answers[c.name], status[c.name] = body, res.StatusCode
				mu.Unlock()
			}()
		}
		started(t, root, "num5", "str5", "num7")
		for _, id := range []string{`"5"`, `"7"`} {
			if res, body := srv.raw(t, "POST", "/mcp", cancel(id), hdr); res.StatusCode != 202 {
				t.Fatalf("cancel %s: %d %s", id, res.StatusCode, body)
			}
		}
		// The cancellation of "5" is served before juju answers: it has
		// stopped its request once that request's POST ends.
		waitFor(t, "the end of the cancelled request", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return status["str5"] != 0
		})
		os.WriteFile(filepath.Join(root, "go"), nil, 0o644)
		wg.Wait()
		// A cancelled request is not answered, as over stdio: its POST
		// ends as 202 with no body.
		if status["str5"] != 202 || answers["str5"] != "" {
			t.Errorf("the cancelled request \"5\": %d %.300s, want 202 and no answer", status["str5"], answers["str5"])
		}
		check(t, root, answers)
	})
}
