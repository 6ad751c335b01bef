// Command fetcher is a test plugin granted net.fetch that fetches one URL
// many times in a call, for the audit's bound on the fetches it lists.
package main

import (
	"fmt"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// FetcherArgs are the arguments of test_fetcher.
type FetcherArgs struct {
	URL   string `json:"url" jsonschema:"required" desc:"The https URL to fetch; ?i=N is added to each fetch."`
	Times int    `json:"times" jsonschema:"required" min:"1" max:"100" desc:"How many fetches to make."`
}

func init() {
	juju.Tool("test_fetcher", juju.ToolOptions{
		Description: "Test plugin: fetches a URL the given number of times and says how many fetches answered.",
		Tier:        abi.TierExec,
	}, func(_ *juju.Call, in FetcherArgs) (*juju.Result, error) {
		ok := 0
		for i := range in.Times {
			if _, _, err := juju.Fetch(abi.FetchRequest{URL: fmt.Sprintf("%s?i=%d", in.URL, i), Format: abi.FetchRaw}); err == nil {
				ok++
			}
		}
		return juju.Text(fmt.Sprintf("%d of %d fetches answered", ok, in.Times)), nil
	})
}

func main() {}
