// Command flood is a hostile test plugin: its tool writes megabytes to its
// channel that no host function takes before it answers, or answers with
// more images than a client takes.
package main

import (
	"os"
	"strconv"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// FloodArgs are the arguments of test_flood.
type FloodArgs struct {
	Op       string `json:"op" enum:"write,images" jsonschema:"required" desc:"write: write MiB to stdout, then answer how many went through; images: answer Count images of MiB each."`
	MiB      int    `json:"mib" min:"0" desc:"Megabytes: to write, or of each image."`
	Count    int    `json:"count,omitempty" min:"0" desc:"How many images."`
	MimeType string `json:"mimeType,omitempty" desc:"The images' MIME type."`
}

func init() {
	juju.Tool("test_flood", juju.ToolOptions{
		Description: "Test plugin: writes or answers more bytes than the host keeps.",
		Tier:        abi.TierRead,
		Annotations: juju.ReadOnly(),
	}, func(_ *juju.Call, in FloodArgs) (*juju.Result, error) {
		chunk := make([]byte, 1<<20)
		for i := range chunk {
			chunk[i] = byte(i)
		}
		if in.Op == "images" {
			r := new(juju.Result)
			for range in.Count {
				img := make([]byte, in.MiB<<20)
				copy(img, chunk)
				r.AddImage(img, in.MimeType)
			}
			return r, nil
		}
		written := 0
		for range in.MiB {
			if _, err := os.Stdout.Write(chunk); err != nil {
				break
			}
			written++
		}
		return juju.Text(strconv.Itoa(written)), nil
	})
}

func main() {}
