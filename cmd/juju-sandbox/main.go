// Command juju-sandbox is juju's sandbox helper as a program of its own:
// bubblewrap starts it inside each sandbox, where it checks juju's
// lifeline and the pinned binds, applies Landlock and execs the command
// (sandbox.HelperMain). juju uses it when it lies beside juju's executable
// and speaks juju's helper protocol, and otherwise re-executes itself
// (`juju __sandbox`), which does the same from a binary whose start costs
// about 15 ms more. It is not for people.
//
//	juju-sandbox --protocol
//	juju-sandbox --abi N [--alive-fd FD] [--write DIR]… [--pin PATH]… [--net] -- PROGRAM ARGS…
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
	os.Exit(sandbox.HelperMain(os.Args[1:], os.Stderr))
}
