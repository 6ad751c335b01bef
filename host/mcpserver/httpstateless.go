package mcpserver

import "sync"

// statelessCalls are the tool calls of protocol 2026-07-28 being served,
// by request id and principal. A stateless request has no session, and
// mcp-go keys the calls it can cancel by session and request id: every
// principal's stateless calls share one namespace of small, guessable ids.
// A cancellation is handed on to mcp-go only when no other principal has
// a call of the id it names, so a client cannot cancel the owner's calls.
type statelessCalls struct {
	mu sync.Mutex
	by map[string]map[string]int // request id → principal → calls
}

// start records a call of id by principal and returns its end.
func (s *statelessCalls) start(id, principal string) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]map[string]int{}
	}
	if s.by[id] == nil {
		s.by[id] = map[string]int{}
	}
	s.by[id][principal]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.by[id][principal]--; s.by[id][principal] == 0 {
			delete(s.by[id], principal)
		}
		if len(s.by[id]) == 0 {
			delete(s.by, id)
		}
	}
}

// othersHold reports whether a principal other than principal has a call
// of id being served.
func (s *statelessCalls) othersHold(id, principal string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.by[id] {
		if p != principal {
			return true
		}
	}
	return false
}
