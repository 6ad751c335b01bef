package mcpserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/sdk/abi"
)

// busy counts, by principal, the requests being served whose answers may
// take long — requests with an id (a tool call, a batch holding them) and
// event streams — each of which keeps its connection busy, and a busy
// connection is one the connection limit cannot hand to anyone else
// (connLimit). Without a bound, one consented OAuth client holding a slow
// call on every connection (256 job_waits, long run_commands) had juju
// close every new connection, the owner's too. So one principal other than
// the local one serves at most max/localRoom requests at once, and those
// principals together leave the local one max/localRoom connections, as
// sessions and streams are shared; a request past a share is answered at
// once (refuseBusy) and leaves its connection idle, which a new connection
// may then take. The owner's local clients are not bounded here: they are
// the owner's. Notifications and responses (an elicitation's answer, a
// cancellation) are never counted: they are answered at once, and a client
// at its share needs them to end its calls.
type busy struct {
	mu     sync.Mutex
	max    int            // the connections juju keeps (Limits.MaxConns)
	others int            // held by principals other than localPrincipal
	by     map[string]int // by principal, when not zero
}

func newBusy(maxConns int) *busy { return &busy{max: maxConns, by: map[string]int{}} }

// share is how many requests one principal other than the local one may
// have served at once.
func (b *busy) share() int { return max(1, b.max/localRoom) }

// take counts one more request of principal's, unless a share it falls
// under is full; the returned function ends the count.
func (b *busy) take(principal string) (done func(), ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if principal != localPrincipal {
		if b.by[principal] >= b.share() || b.others >= b.max-b.share() {
			return nil, false
		}
		b.others++
	}
	b.by[principal]++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if principal != localPrincipal {
				b.others--
			}
			if b.by[principal]--; b.by[principal] == 0 {
				delete(b.by, principal)
			}
		})
	}, true
}

// counted says whether a request keeps its connection busy for as long as
// its answer takes: a GET stream, or a POST holding a request (one with an
// id, or a batch, which may hold some).
func counted(r *http.Request, msg request) bool {
	switch r.Method {
	case http.MethodGet:
		return true
	case http.MethodPost:
		return msg.batch || msg.id != nil || msg.listen
	}
	return false
}

// refuseBusy answers a request past its principal's share of busy
// connections: a tool call with a TOO_LARGE result, which the model reads
// and acts on, anything else with 503.
func (f *front) refuseBusy(w http.ResponseWriter, r *http.Request, principal string, msg request, share int) {
	f.log.Debug("refused a request past its principal's share of requests in flight", "share", share)
	if msg.call == "" || msg.id == nil || r.Method != http.MethodPost {
		w.Header().Set("Retry-After", "5")
		httpError(w, http.StatusServiceUnavailable, fmt.Sprintf("this client has %d requests in flight, the most juju serves one client at once; wait for their answers, then retry", share))
		return
	}
	tool := "the tool"
	if msg.tool != "" {
		tool = msg.tool
	}
	if f.refused != nil {
		f.refused(withPrincipal(r.Context(), principal), msg.tool, nil, abi.TooLarge)
	}
	b, err := json.Marshal(mcp.JSONRPCResponse{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(asWritten(msg.id)),
		Result: toMCP(&abi.CallResult{Error: abi.Errorf(abi.TooLarge,
			"this client has %d requests in flight, the most juju serves one client at once, so this call to %s did not run; wait for the answers of those running (make no new calls until one comes back), then call again, making fewer calls at once", share, tool)}),
	})
	if err != nil { // not expected: every part is plain
		httpError(w, http.StatusServiceUnavailable, "too many requests in flight from this client")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}
