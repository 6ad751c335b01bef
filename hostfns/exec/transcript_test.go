package exec

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/golden"
	"github.com/jujutools/juju/sdk/abi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTranscript records a session of the command host calls as text,
// "==> fn(request)" and "<== response" per call, and compares it with
// testdata/transcript.golden (go test -update rewrites it). Durations and
// the temporary folders are scrubbed; job ids, states, exit codes and
// output are the host's own and stay. A background job waits for a file
// the session makes, so that its state at each call is certain.
func TestTranscript(t *testing.T) {
	jobs := filepath.Join(t.TempDir(), "jobs")
	m, root := newManager(t, Options{
		JobsDir:         jobs,
		BackgroundAfter: 5 * time.Second,
		Env:             []string{"PATH=" + os.Getenv("PATH"), "HOME=/nowhere", "GITHUB_TOKEN=x", "LANG=C"},
	})
	fns := map[string]func(context.Context, []byte, []byte) ([]byte, []byte){}
	for _, fn := range m.Funcs() {
		fns[fn.Name] = fn.Handle
	}
	calls := []struct{ fn, req string }{
		// Argv: output, exit codes, the scrubbed environment, the folder.
		{abi.FnExec, `{"program":"echo","args":["hello","two words"]}`},
		{abi.FnExec, `{"program":"sh","args":["-c","echo out; echo err >&2; exit 3"]}`},
		{abi.FnExec, `{"program":"sh","args":["-c","echo \"$HOME ${GITHUB_TOKEN-unset}\"; basename \"$PWD\""],"cwd":"sub"}`},
		{abi.FnExec, `{"program":"no-such-program-juju"}`},
		// Refused before anything runs.
		{abi.FnExec, `{"program":"ls","cwd":".env"}`},
		{abi.FnExec, `{"program":"ls","cwd":"../"}`},
		{abi.FnExec, `{"program":"ls","cwd":"sub/a.txt"}`},
		{abi.FnExec, `{"program":"ls","cwd":"nope"}`},
		{abi.FnExec, `{"command":"ls"}`},
		{abi.FnExec, `{"program":"echo","args":["a\u0000b"]}`},
		{abi.FnExec, `{"program":"ls","timeoutMs":-1}`},
		{abi.FnExec, `{"program":"ls","sandbox":true}`},
		{abi.FnExec, `{"program":"ls","shell":true}`},
		// Shell: bash -c, its timeout, the head-and-tail cut.
		{abi.FnExecShell, `{"command":"echo $((6*7))"}`},
		{abi.FnExecShell, `{"program":"ls"}`},
		{abi.FnExecShell, `{"command":"  "}`},
		{abi.FnExecShell, `{"command":"sleep 5","timeoutMs":200}`},
		{abi.FnExecShell, `{"command":"seq 1 2000","maxOutput":64}`},
		// A background job, released by a file.
		{abi.FnExecShell, `{"command":"while [ ! -e go ]; do sleep 0.02; done; echo finished; echo late >&2","background":true}`},
		{abi.FnJob, `{"op":"status","jobId":"job-7"}`},
		{abi.FnJob, `{"op":"wait","jobId":"job-7","waitMs":50}`},
		{abi.FnExec, `{"program":"touch","args":["go"]}`},
		{abi.FnJob, `{"op":"wait","jobId":"job-7","waitMs":10000}`},
		{abi.FnJob, `{"op":"output","jobId":"job-7","limit":4}`},
		{abi.FnJob, `{"op":"output","jobId":"job-7","offset":4}`},
		{abi.FnJob, `{"op":"output","jobId":"job-7","stream":"stderr"}`},
		{abi.FnJob, `{"op":"output","jobId":"job-7","stream":"stdin"}`},
		{abi.FnJob, `{"op":"output","jobId":"job-7","offset":999}`},
		{abi.FnJob, `{"op":"wait","jobId":"job-7","waitMs":-1}`},
		// Cancel: the whole group, once; then the list, newest first.
		{abi.FnExecShell, `{"command":"sleep 300","background":true}`},
		{abi.FnJob, `{"op":"cancel","jobId":"job-9"}`},
		{abi.FnJob, `{"op":"cancel","jobId":"job-9"}`},
		{abi.FnJob, `{"op":"status","jobId":"job-99"}`},
		{abi.FnJob, `{"op":"explode","jobId":"job-9"}`},
		{abi.FnJob, `{"op":"list"}`},
	}
	paths := strings.NewReplacer(root, "$ROOT", jobs, "$JOBS")
	durations := regexp.MustCompile(`"durationMs":\d+`)
	var b strings.Builder
	for _, c := range calls {
		out, body := fns[c.fn](context.Background(), []byte(c.req), nil)
		resp := durations.ReplaceAllLiteralString(paths.Replace(string(out)), `"durationMs":"$DUR"`)
		fmt.Fprintf(&b, "==> %s(%s)\n<== %s", c.fn, c.req, resp)
		if len(body) > 0 {
			fmt.Fprintf(&b, " body=%q", body)
		}
		b.WriteString("\n")
	}
	golden.Check(t, filepath.Join("testdata", "transcript.golden"), b.String(), *update)
}
