package oauth

import (
	"crypto/rand"
	"strings"
	"sync"
	"time"
)

// A consent is one load of the /authorize page: the checked authorization
// request, the pairing code printed for it, and the CSRF token of its form.
// It lives in memory for consentTTL, takes at most maxTries codes, and is
// used once.
type consent struct {
	txn, csrf, code string
	clientID        string
	clientName      string
	redirect        string
	explicit        bool // the request named redirect_uri
	challenge       string
	state           string
	resource        string
	issuer          string
	expires         time.Time
	tries           int
}

// Pairing limits: per page, and across all pages (wrong codes and page
// loads), so that whoever reaches the page through a tunnel can neither
// guess a code nor flood the owner's terminal.
const (
	maxTries    = 5
	maxPending  = 16
	maxFails    = 20 // wrong codes per failSpan, then no code is taken
	failSpan    = 10 * time.Minute
	maxLoads    = 20 // consent pages per minute
	codeLetters = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
	codeLen     = 8
)

// consents are the pending consent pages.
type consents struct {
	mu    sync.Mutex
	byTxn map[string]*consent
	fails *window
	loads *window
	now   func() time.Time
}

func newConsents(now func() time.Time) *consents {
	return &consents{
		byTxn: map[string]*consent{},
		fails: &window{limit: maxFails, span: failSpan, now: now},
		loads: &window{limit: maxLoads, span: time.Minute, now: now},
		now:   now,
	}
}

// newPairingCode is codeLen letters of an alphabet without look-alikes
// (about 39 bits), shown as XXXX-XXXX.
func newPairingCode() string {
	b := make([]byte, codeLen)
	rand.Read(b)
	out := make([]byte, 0, codeLen+1)
	for i, c := range b {
		if i == codeLen/2 {
			out = append(out, '-')
		}
		// 256 is not a multiple of 30: the first letters are very slightly
		// likelier, a bias of no use to a guesser with five tries.
		out = append(out, codeLetters[int(c)%len(codeLetters)])
	}
	return string(out)
}

// normalizeCode accepts what the owner types: any case, spaces, dashes.
func normalizeCode(s string) string {
	s = strings.ToUpper(s)
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// errBusy reports too many pages at once, or too many wrong codes lately.
type errBusy string

func (e errBusy) Error() string { return string(e) }

// open records a new consent, with a new pairing code.
func (cs *consents) open(c *consent) error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	now := cs.now()
	for txn, p := range cs.byTxn {
		if !p.expires.After(now) {
			delete(cs.byTxn, txn)
		}
	}
	if cs.fails.full() {
		return errBusy("too many wrong pairing codes lately; juju takes no more for a few minutes")
	}
	if len(cs.byTxn) >= maxPending || !cs.loads.allow() {
		return errBusy("too many authorization pages are open; try again in a minute")
	}
	c.txn = random("", 24)
	c.csrf = random("", 24)
	c.code = newPairingCode()
	c.expires = now.Add(consentTTL)
	cs.byTxn[c.txn] = c
	return nil
}

// get returns the live consent of txn, or nil.
func (cs *consents) get(txn string) *consent {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c := cs.byTxn[txn]
	if c == nil || !c.expires.After(cs.now()) {
		delete(cs.byTxn, txn)
		return nil
	}
	return c
}

// drop forgets a consent.
func (cs *consents) drop(txn string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.byTxn, txn)
}

// tryResult is the outcome of a typed code.
type tryResult int

const (
	codeRight  tryResult = iota
	codeWrong            // tries remain
	codeSpent            // the page took its last try; it is gone
	codeLocked           // too many wrong codes across pages: none is taken
)

// try checks a typed code against the consent's. A right code ends the
// consent (one use); a wrong one costs a try here and counts across pages.
func (cs *consents) try(c *consent, typed string) (tryResult, int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.byTxn[c.txn] != c {
		return codeSpent, 0
	}
	if cs.fails.full() {
		return codeLocked, 0
	}
	if equal(normalizeCode(typed), normalizeCode(c.code)) {
		delete(cs.byTxn, c.txn)
		return codeRight, 0
	}
	cs.fails.allow()
	c.tries++
	if c.tries >= maxTries {
		delete(cs.byTxn, c.txn)
		return codeSpent, 0
	}
	return codeWrong, maxTries - c.tries
}
