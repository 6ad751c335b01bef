package mcpserver

import (
	"errors"
	"sync"
)

// bodyShares divides Limits.MaxBodies: one principal other than the local
// one holds at most 1/bodyShares of it, and the others together leave the
// local principal 1/bodyShares. With the defaults a share is 64 MiB, eight
// bodies of the largest size: an OAuth client that sends large bodies and
// never reads its answers fills its own share and no more, and the
// owner's clients always find room.
const bodyShares = 4

// budget counts the bytes of request bodies held, by principal, against
// the bound for all (max), the bound for one principal (max/bodyShares)
// and the bound for all but the local principal (max less a share),
// safely across goroutines. The local principal (the owner's token) has
// no share of its own.
type budget struct {
	mu     sync.Mutex
	max    int64
	used   int64            // by everyone
	others int64            // by principals other than localPrincipal
	by     map[string]int64 // by principal, when not zero
}

// Errors of budget.take.
var (
	// errBodiesFull is a body whose next bytes would pass Limits.MaxBodies.
	errBodiesFull = errors.New("request bodies at their bound")
	// errShareFull is a body whose next bytes would pass its principal's
	// share.
	errShareFull = errors.New("the principal's request bodies at their bound")
)

// take counts n more bytes of principal's, unless that would pass a bound.
func (b *budget) take(principal string, n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	share := b.max / bodyShares
	switch {
	case b.used+n > b.max:
		return errBodiesFull
	case principal != localPrincipal && b.by[principal]+n > share:
		return errShareFull
	case principal != localPrincipal && b.others+n > b.max-share:
		return errBodiesFull
	}
	b.used += n
	if principal != localPrincipal {
		b.others += n
	}
	if b.by == nil {
		b.by = map[string]int64{}
	}
	b.by[principal] += n
	return nil
}

// give returns n bytes principal took.
func (b *budget) give(principal string, n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	if principal != localPrincipal {
		b.others -= n
	}
	if b.by[principal] -= n; b.by[principal] == 0 {
		delete(b.by, principal)
	}
}

// held is the number of bytes held by everyone.
func (b *budget) held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// lease is what one request holds of the budget. It is given back as soon
// as the body has been handed on, before the answer is written: a client
// that does not read its answers must not keep the bytes of its requests
// counted, or it would refuse everyone else's for as long as it liked.
type lease struct {
	b         *budget
	principal string
	mu        sync.Mutex
	n         int64
}

func newLease(b *budget, principal string) *lease { return &lease{b: b, principal: principal} }

// take counts n more bytes, unless a bound would pass.
func (l *lease) take(n int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.b.take(l.principal, n); err != nil {
		return err
	}
	l.n += n
	return nil
}

// give returns n of the bytes held, or all of them when fewer.
func (l *lease) give(n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n = min(n, l.n)
	l.n -= n
	l.b.give(l.principal, n)
}

// keep gives back all but n bytes.
func (l *lease) keep(n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	back := max(0, l.n-n)
	l.n -= back
	l.b.give(l.principal, back)
}

// release gives back everything held; it may be called any number of
// times.
func (l *lease) release() { l.keep(0) }
