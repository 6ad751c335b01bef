// Command juju-sandbox is juju's sandbox helper as a program of its own:
// bubblewrap starts it inside each sandbox, where it checks juju's
// lifeline and the pinned binds, applies Landlock and execs the command
// (sandbox.HelperMain). juju uses it when it lies beside juju's executable
// and speaks juju's helper protocol, and otherwise re-executes itself
// (`juju __sandbox`), which does the same from a binary whose start costs
// about 15 ms more. With --reap it is instead the init of the PID
// namespace juju runs a sandbox's bubblewrap in, so that the sandbox dies
// with juju however juju dies (sandbox.ReaperMain). It is not for people.
//
//	juju-sandbox --protocol
//	juju-sandbox --reap --keep N -- BWRAP ARGS…   (outside the sandbox: sandbox.ReaperMain)
//	juju-sandbox --reap --standby                 (the same, its command handed over descriptor 3)
//	juju-sandbox --bubblewrap BWRAP ARGS…         (outside the sandbox, without Landlock: bubblewrap with the seccomp filter)
//	juju-sandbox --abi N [--alive-fd FD] [--nproc N] [--write DIR]… [--pin PATH]… [--net] -- PROGRAM ARGS…
package main

import (
	"fmt"
	"os"

	"github.com/jujutools/juju/sandbox"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--protocol" {
		fmt.Println(sandbox.HelperProtocol)
		return
	}
	if len(os.Args) > 1 && os.Args[1] == sandbox.ReaperFlag {
		os.Exit(sandbox.ReaperMain(os.Args[2:], os.Stderr))
	}
	os.Exit(sandbox.HelperMain(os.Args[1:], os.Stderr))
}
