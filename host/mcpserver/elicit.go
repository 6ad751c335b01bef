package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	b64 "encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/visible"
)

// The owner is asked through the client's elicitation, a form with one
// yes/no field. Clients of protocol versions before 2026-07-28 get a
// server-initiated elicitation/create request while the call waits
// (legacyAsker); newer clients get the question as the call's
// input-required result and answer it by retrying the call with the
// owner's answer (roundTripAsker, SEP-2322).

// approvalInput keys the question among a result's input requests.
const approvalInput = "juju-approval"

// errNoElicitation is the client's refusal to take an elicitation.
var errNoElicitation = errors.New("the client did not take the elicitation request")

// elicitation is the question as MCP carries it.
func elicitation(q host.Question) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Message: question(q),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{
					"type":        "boolean",
					"title":       "Run this call",
					"description": "Let the call run once.",
					"default":     true,
				},
			},
			"required": []string{"approve"},
		},
	}
}

// accepted reads the owner's answer: accept with approve true (or the
// string "true", as some forms send a checkbox), or without content or the
// field (its default is true), runs the call. Anything else refuses it:
// decline, cancel, approve false, an approve of another type or value,
// content that is not an object. An answer juju cannot read is no yes.
func accepted(res *mcp.ElicitationResult) bool {
	if res.Action != mcp.ElicitationResponseActionAccept {
		return false
	}
	if res.Content == nil {
		return true
	}
	m, ok := res.Content.(map[string]any)
	if !ok {
		return false
	}
	v, ok := m["approve"]
	if !ok {
		return true
	}
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// answer turns the client's answer into the host's.
func answer(res *mcp.ElicitationResult) host.Answer {
	if accepted(res) {
		return host.Accepted
	}
	return host.Declined
}

// question is what the owner reads: what the call will do, when juju
// describes the tool (host.Question.What), then the arguments whole, with space runs,
// control and invisible characters made visible (visible.Args), however
// long they are: a prompt never hides text.
func question(q host.Question) string {
	tier := map[string]string{"E": "changes files", "X": "runs commands or reaches the network"}[q.Tier]
	if tier == "" {
		tier = "tier " + q.Tier
	}
	who := q.Client
	if who == "" {
		who = "the client"
	}
	note := ""
	if q.Note != "" {
		note = q.Note + " "
	}
	if q.What != "" {
		// What juju wrote itself, every character visible (host.describe).
		return fmt.Sprintf("%sjuju: %s wants to call %s (tier %s: %s, plugin %s).\nIt %s\nThe arguments in full: %s.\nAllow this call once?",
			note, visible.String(who), q.Tool, q.Tier, tier, q.Plugin, q.What, visible.Args(q.Args, visible.Limits{}))
	}
	return fmt.Sprintf("%sjuju: %s wants to call %s (tier %s: %s, plugin %s) with %s. Allow this call once?",
		note, visible.String(who), q.Tool, q.Tier, tier, q.Plugin, visible.Args(q.Args, visible.Limits{}))
}

// legacyAsker sends elicitation/create and waits for the answer. Over
// stdio (asked set), a question given up is withdrawn (questions).
type legacyAsker struct {
	mcp   *server.MCPServer
	asked *questions
	out   io.Writer // where a withdrawal is written, with asked
}

var _ host.Asker = legacyAsker{}

// Ask implements host.Asker.
func (a legacyAsker) Ask(ctx context.Context, q host.Question) (host.Answer, error) {
	req := mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  elicitation(q),
	}
	var res *mcp.ElicitationResult
	var err error
	if a.asked == nil {
		res, err = a.mcp.RequestElicitation(ctx, req)
	} else {
		res, err = a.askWithdrawing(ctx, req)
	}
	if err != nil {
		return host.Declined, fmt.Errorf("%w: %w", errNoElicitation, err)
	}
	if res == nil {
		return host.Declined, errNoElicitation
	}
	return answer(res), nil
}

// askWithdrawing sends req and waits for the answer; when ctx ends first,
// the question is withdrawn with notifications/cancelled. When the
// client's input ends before its answer was read, the question is given
// up with errHungUp (questions).
func (a legacyAsker) askWithdrawing(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	type answer struct {
		res *mcp.ElicitationResult
		err error
	}
	select {
	case a.asked.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-a.asked.gone:
		return nil, errHungUp
	}
	sent := make(chan int64, 1)
	a.asked.expect(sent)
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan answer, 1)
	go func() {
		res, err := a.mcp.RequestElicitation(rctx, req)
		done <- answer{res, err}
	}()
	id, known := int64(0), false
	var got answer
	select {
	case id = <-sent:
		known = true
		a.asked.expect(nil)
		<-a.asked.sem
		select {
		case got = <-done:
		case <-a.asked.gone:
			if !a.asked.answerRead(id) {
				stop()
				<-done
				a.asked.settle(id)
				return nil, errHungUp
			}
			got = <-done // read before the end: mcp-go hands it on
		}
		a.asked.settle(id)
	case got = <-done: // not sent
		a.asked.expect(nil)
		<-a.asked.sem
		select {
		case id = <-sent:
			known = true
			a.asked.settle(id)
		default:
		}
	}
	if known && got.err != nil && ctx.Err() != nil {
		reason := "the call was cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			reason = "the owner's time to answer is over; the call now waits for juju approvals in a terminal"
		}
		if _, err := a.out.Write(cancelled(id, reason)); err != nil {
			return got.res, errors.Join(got.err, err)
		}
	}
	return got.res, got.err
}

// roundTripAsker hands the question to the client as an input-required
// result, and reads the answer from the retried call.
type roundTripAsker struct {
	key    []byte       // signs the request state, binding an answer to its call
	used   *stateLedger // the request states already answered
	params mcp.MultiRoundTripParams
	now    func() time.Time // time.Now; tests set it

	mu     sync.Mutex
	result *mcp.CallToolResult // the question, once handed out
}

var _ host.Asker = (*roundTripAsker)(nil)

// stateTTL is how long a question handed out can be answered.
const stateTTL = 15 * time.Minute

// A request state is "nonce.time.epoch.mac": a random nonce, the time it
// was handed out (Unix seconds), the workspace's epoch then (host.Question
// Epoch), and the HMAC of the three with the call's client, tool and
// arguments. An answer is taken only with a state juju signed for the same
// call, within stateTTL, and once: the owner's yes runs one call, as a
// legacy elicitation's does, and a client that retries with the same
// answer is asked again. An answer given while the workspace changed
// through juju (its epoch moved) is not taken either: the owner is asked
// again, told why (host.ChangedWhileAsked).

// state makes the request state of a question handed out at t.
func (a *roundTripAsker) state(q host.Question, t time.Time) string {
	var n [12]byte
	rand.Read(n[:])
	nonce, at := b64.RawURLEncoding.EncodeToString(n[:]), strconv.FormatInt(t.Unix(), 10)
	return nonce + "." + at + "." + q.Epoch + "." + a.mac(q, nonce, at, q.Epoch)
}

func (a *roundTripAsker) mac(q host.Question, nonce, at, epoch string) string {
	m := hmac.New(sha256.New, a.key)
	fmt.Fprintf(m, "%s\x00%s\x00%s\x00%s\x00%s\x00%s", q.Client, q.Tool, q.ArgsHash, nonce, at, epoch)
	return b64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// The answers to a request state.
type stateAnswer int

const (
	stateRefused stateAnswer = iota // not a state juju signed for this call, expired, or answered before
	stateTaken                      // the answer is the owner's, for this call as the workspace stands
	stateChanged                    // the owner's, but the workspace changed since it was asked
)

// answered reports whether state is one juju signed for q, handed out no
// longer than stateTTL before now and not answered before (it is then
// struck off), and whether the workspace's epoch is still the one it was
// handed out in.
func (a *roundTripAsker) answered(q host.Question, state string, now time.Time) stateAnswer {
	parts := strings.Split(state, ".")
	if len(parts) != 4 {
		return stateRefused
	}
	nonce, at, epoch, mac := parts[0], parts[1], parts[2], parts[3]
	if !hmac.Equal([]byte(mac), []byte(a.mac(q, nonce, at, epoch))) {
		return stateRefused
	}
	secs, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return stateRefused
	}
	issued := time.Unix(secs, 0)
	if now.Sub(issued) > stateTTL || issued.Sub(now) > time.Minute || !a.used.take(nonce, issued, now) {
		return stateRefused
	}
	if epoch != q.Epoch {
		return stateChanged
	}
	return stateTaken
}

// Ask implements host.Asker.
func (a *roundTripAsker) Ask(_ context.Context, q host.Question) (host.Answer, error) {
	now := time.Now()
	if a.now != nil {
		now = a.now()
	}
	if ans := server.ElicitationResponse(a.params.InputResponses, approvalInput); ans != nil {
		switch a.answered(q, a.params.RequestState, now) {
		case stateTaken:
			return answer(ans), nil
		case stateChanged:
			if answer(ans) == host.Declined {
				return host.Declined, nil // a no stands, whatever changed
			}
			if q.Note == "" {
				q.Note = host.ChangedWhileAsked
			}
		}
	}
	a.mu.Lock()
	a.result = server.NewInputRequestBuilder(a.state(q, now)).Elicit(approvalInput, elicitation(q)).ToolResult()
	a.mu.Unlock()
	return host.Handed, nil
}

// stateLedger holds the nonces of the request states answered, each until
// its state expires: a state is answered once.
type stateLedger struct {
	mu   sync.Mutex
	used map[string]time.Time // nonce → when its state was handed out
}

func newStateLedger() *stateLedger { return &stateLedger{used: map[string]time.Time{}} }

// take records nonce, handed out at issued, and reports whether it was
// new. Nonces whose states have expired are dropped: they cannot be
// answered any more.
func (l *stateLedger) take(nonce string, issued, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for n, t := range l.used {
		if now.Sub(t) > stateTTL {
			delete(l.used, n)
		}
	}
	if _, ok := l.used[nonce]; ok {
		return false
	}
	l.used[nonce] = issued
	return true
}

func (a *roundTripAsker) question() *mcp.CallToolResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.result
}

// asker is the Asker for the client of this call, when it declared the
// elicitation capability with its form mode (formElicitation): at initialize, or, for newer protocol versions,
// on the request itself (then the round-trip asker, returned twice so the
// front can hand its question out). Nil when the client cannot be asked,
// or the owner set approvals.askInClient = false: a client can answer its
// own elicitation, and that owner takes only a terminal's answer.
func (s *Server) asker(ctx context.Context, req mcp.CallToolRequest) (host.Asker, *roundTripAsker) {
	if s.host.Config().TerminalApprovalsOnly || served(ctx) {
		// A call the front serves itself asks no question in the client
		// (httpcall.go): it has none to ask, unless the catalog changed
		// its tool's tier meanwhile, and then the owner answers it with
		// juju approvals.
		return nil, nil
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if info.ClientCapabilities == nil || !formElicitation(info.ClientCapabilities.Elicitation) {
			return nil, nil
		}
		a := &roundTripAsker{key: s.stateKey, used: s.answered, params: req.Params.MultiRoundTripParams}
		return a, a
	}
	sess, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok || !formElicitation(sess.GetClientCapabilities().Elicitation) {
		return nil, nil
	}
	if _, ok := sess.(server.SessionWithElicitation); !ok {
		return nil, nil
	}
	return legacyAsker{mcp: s.mcp, asked: s.asked, out: s.askedOut}, nil
}

// formElicitation reports whether a client's elicitation capability takes
// the form-mode questions juju asks: MCP 2025-11-25 has a client name its
// modes ({"form":{}, "url":{}}), an empty object meaning form mode alone,
// and a server send no request of a mode the client did not declare. A
// client of URL mode only is not asked, as one without the capability is
// not (its call gets APPROVAL_PENDING).
func formElicitation(c *mcp.ElicitationCapability) bool {
	return c != nil && (c.Form != nil || c.URL == nil)
}
