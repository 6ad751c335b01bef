package oauth

import (
	"sync"
	"time"
)

// authCode is an authorization code handed to a client, kept by its hash
// in memory (a restart forgets pending codes, which live a minute anyway).
type authCode struct {
	client, redirect string
	explicit         bool // the authorization request named the redirect URI
	challenge        string
	resource         string
	expires          time.Time
	used             bool   // exchanged, or tried
	replayed         bool   // presented again after its first use
	grant            string // the grant it gave, once exchanged
}

// codes are the authorization codes issued lately.
type codes struct {
	mu     sync.Mutex
	byHash map[string]*authCode
}

// codeMemory is how long a used code is remembered, to catch a replay.
const codeMemory = 10 * time.Minute

// issue makes a code for a consent the owner allowed.
func (cs *codes) issue(c *consent, now time.Time) string {
	code := random(codePrefix, 32)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for h, ac := range cs.byHash {
		if now.Sub(ac.expires) > codeMemory {
			delete(cs.byHash, h)
		}
	}
	cs.byHash[hash(code)] = &authCode{
		client: c.clientID, redirect: c.redirect, explicit: c.explicit,
		challenge: c.challenge, resource: c.resource, expires: now.Add(codeTTL),
	}
	return code
}

// take marks a code used and returns it, with the grant it gave if it had
// been used before (a replay: what it gave must be revoked). A code is
// used by its first presentation, right or wrong.
func (cs *codes) take(code string) (ac *authCode, replay bool, grant string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	ac = cs.byHash[hash(code)]
	if ac == nil {
		return nil, false, ""
	}
	if ac.used {
		ac.replayed = true
		return ac, true, ac.grant
	}
	ac.used = true
	return ac, false, ""
}

// gave records the grant a code gave, and reports whether the code was
// replayed in the meantime (then the grant must be revoked too).
func (cs *codes) gave(ac *authCode, grant string) (replayed bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	ac.grant = grant
	return ac.replayed
}
