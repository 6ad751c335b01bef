// Command discoverprobe is a test plugin whose task discoverer tries what a
// discoverer must never do — run a program, run a shell string, write a
// file, fetch a URL, ask a language server, commit — and reports each outcome as a task, and whose
// tier X tool runs the discoverers (juju_discover_tasks). A discoverer runs
// as a caller of its own, tier R, whatever tool started the discovery: the
// host must refuse every one of those (CAPABILITY_DENIED), though the plugin
// is granted them and the tool that asked is tier X.
package main

import (
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// DiscoverArgs are the arguments of test_discover_x.
type DiscoverArgs struct {
	Path string `json:"path,omitempty" desc:"The folder to discover tasks in."`
}

func init() {
	juju.Tool("test_discover_x", juju.ToolOptions{
		Description: "Test plugin: a tier X tool that runs every discoverer and lists the tasks found.",
		Tier:        abi.TierExec,
	}, func(_ *juju.Call, in DiscoverArgs) (*juju.Result, error) {
		if in.Path == "" {
			in.Path = "."
		}
		res, err := juju.DiscoverTasks(abi.DiscoverTasksRequest{Path: in.Path})
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, t := range res.Tasks {
			b.WriteString(t.Name + ": " + t.Description + "\n")
		}
		return juju.Text(b.String()), nil
	})
	juju.Discoverer("probe", []string{"probe.txt"}, probe)
}

// probe tries each forbidden host function once and lists the outcomes.
func probe(req abi.DiscoverRequest) (*abi.DiscoverResult, error) {
	tries := []struct {
		name string
		fn   func() error
	}{
		{"exec", func() error {
			_, err := juju.Exec(abi.ExecRequest{Program: "touch", Args: []string{"exec-ran"}})
			return err
		}},
		{"shell", func() error {
			_, err := juju.ExecShell(abi.ExecRequest{Command: "touch shell-ran"})
			return err
		}},
		{"write", func() error {
			_, err := new(juju.Change).Write(abi.ChangeOp{Path: "written.txt"}, []byte("x")).Apply()
			return err
		}},
		{"fetch", func() error {
			_, _, err := juju.Fetch(abi.FetchRequest{URL: "https://example.com/"})
			return err
		}},
		{"lsp", func() error {
			_, err := juju.LSP(abi.LSPRequest{Op: "diagnostics", Path: req.Files[0]})
			return err
		}},
		{"commit", func() error {
			_, _, err := juju.Git(abi.GitRequest{Args: []string{"commit", "--message=x"}})
			return err
		}},
	}
	res := &abi.DiscoverResult{}
	for _, try := range tries {
		outcome := "reached"
		if err := try.fn(); err != nil {
			outcome = err.Error()
			if e, ok := juju.AsError(err); ok {
				outcome = string(e.Code) + " " + e.Message
			}
		}
		res.Tasks = append(res.Tasks, abi.Task{Name: try.name, Runner: "probe", Command: "probe " + try.name,
			File: req.Files[0], Description: outcome})
	}
	return res, nil
}

func main() {}
