// Command escape is a test plugin that tries to reach the world around juju's
// host functions: through WASI's file system (juju gives plugins no
// preopened directories), through Extism's own HTTP host function (juju
// allows no hosts), and through the environment. Each attempt must fail; the
// tool reports what it saw so a test can check nothing leaked.
package main

import (
	"encoding/json"
	"os"
	"strings"

	pdk "github.com/extism/go-pdk"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// EscapeArgs are the arguments of test_escape.
type EscapeArgs struct {
	Via    string `json:"via,omitempty" enum:"fs,http,env" default:"fs" desc:"How to try: fs (WASI file system), http (Extism HTTP), env (environment)."`
	Target string `json:"target,omitempty" default:"/etc/passwd" desc:"The file or URL to try."`
}

func init() {
	juju.Tool("test_escape", juju.ToolOptions{
		Description: "Test plugin: tries to read a file, fetch a URL or read the environment without juju's host functions.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in EscapeArgs) (*juju.Result, error) {
		switch in.Via {
		case "http":
			// Traps when the host refuses (no allowed hosts): the call fails.
			resp := pdk.NewHTTPRequest(pdk.MethodGet, in.Target).Send()
			return juju.Text("http status " + string(rune('0'+resp.Status()/100))), nil
		case "env":
			return juju.Text("env: " + strings.Join(os.Environ(), ";")), nil
		}
		var seen []string
		if b, err := os.ReadFile(in.Target); err == nil {
			seen = append(seen, "read: "+string(b))
		} else {
			seen = append(seen, "read failed: "+err.Error())
		}
		for _, dir := range []string{"/", ".", "/tmp"} {
			if entries, err := os.ReadDir(dir); err == nil {
				names, _ := json.Marshal(len(entries))
				seen = append(seen, "listed "+dir+": "+string(names)+" entries")
			}
		}
		return juju.Text(strings.Join(seen, "\n")), nil
	})
}

func main() {}
