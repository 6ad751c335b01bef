package sandbox

import "testing"

// TestPrivateLoopbackIsNotJujusOwn: the namespace juju runs in is never
// taken for the command's private one, whatever its interfaces.
func TestPrivateLoopbackIsNotJujusOwn(t *testing.T) {
	ns := NetNamespace()
	if ns == 0 {
		t.Skip("no /proc/self/ns/net")
	}
	if err := privateLoopback(ns); err == nil {
		t.Fatal("juju's own network namespace proven private")
	}
	if err := privateLoopback(0); err == nil {
		t.Fatal("an unknown outer namespace proven private")
	}
}
