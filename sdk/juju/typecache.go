package juju

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// typeCache holds what was worked out once for each type (its fields, its
// codec). Every call looks several types up and nearly never adds one, so
// a lookup is an atomic load and a read of a map that is never written
// again: adding copies the map. Inside wasm, sync.Map's lookups (a hash of
// the interface, then a walk down its trie) were about 7% of a call of the
// echo test plugin.
type typeCache[V any] struct {
	mu sync.Mutex // serialises adding
	m  atomic.Pointer[map[reflect.Type]V]
}

func (c *typeCache[V]) load(t reflect.Type) (V, bool) {
	if m := c.m.Load(); m != nil {
		v, ok := (*m)[t]
		return v, ok
	}
	var zero V
	return zero, false
}

func (c *typeCache[V]) store(t reflect.Type, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	m := make(map[reflect.Type]V, 1)
	if old != nil {
		m = make(map[reflect.Type]V, len(*old)+1)
		for k, x := range *old {
			m[k] = x
		}
	}
	m[t] = v
	c.m.Store(&m)
}
