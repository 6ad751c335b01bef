// Command trap is a test plugin whose tool crashes the plugin in the way
// asked: a nil dereference in a goroutine (a Go runtime crash no recover can
// catch), an out-of-bounds memory access (a wasm trap), a panic inside the
// handler (recovered by the SDK into INTERNAL), an exit of the whole module
// (WASI proc_exit, with status 3 or 0), or nothing at all.
package main

import (
	"os"
	"unsafe"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// TrapArgs are the arguments of test_trap.
type TrapArgs struct {
	Kind string `json:"kind,omitempty" enum:"nil,oob,panic,exit,exit0,none" default:"nil" desc:"How to fail: nil (nil dereference in a goroutine), oob (out-of-bounds memory access), panic (panic in the handler), exit and exit0 (the module exits with status 3 or 0), none (succeed)."`
}

var sink *int

func init() {
	juju.Tool("test_trap", juju.ToolOptions{
		Description: "Test plugin: crashes in the way asked.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in TrapArgs) (*juju.Result, error) {
		switch in.Kind {
		case "nil":
			done := make(chan struct{})
			go func() {
				*sink = 1 // sink is nil: the goroutine panics, and nothing recovers it
				close(done)
			}()
			<-done
		case "oob":
			var x byte
			base := unsafe.Pointer(&x)
			p := (*byte)(unsafe.Add(base, int(0xFFFFFF00-uintptr(base))))
			*p = 1 // far beyond the linear memory: the wasm traps
		case "panic":
			panic("test_trap asked to panic")
		case "exit":
			os.Exit(3)
		case "exit0":
			os.Exit(0)
		}
		return juju.Text("no trap"), nil
	})
}

func main() {}
