//go:build !linux

package fetch

import "net/netip"

// localRoute is nil where juju cannot ask the kernel's routing (it does
// so on Linux only): the interfaces' addresses are checked alone.
var localRoute func(netip.Addr) (bool, error)
