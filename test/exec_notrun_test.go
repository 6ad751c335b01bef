//go:build unix

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecProgramNotRunExitsAsAShellSays: exec_command of a program that
// is found and cannot be run (no execute permission, a folder, a format
// the kernel does not run) exits 126, and of one that is not there (or
// whose #! interpreter is not) 127, saying why on stderr, as a shell's
// user expects, sandboxed or not. In the sandbox a file without execute
// permission exited 127; unsandboxed none of them ran as a job at all, a
// NOT_FOUND error standing for the exit code the sandbox gave. A script
// whose #! interpreter is missing is said to exist, with the line.
func TestExecProgramNotRunExitsAsAShellSays(t *testing.T) {
	cases := []struct {
		program string
		code    float64
		says    string
	}{
		{"./noexec.sh", 126, "permission denied"},
		{"./adir", 126, ""},
		{"./badfmt", 126, "exec format error"},
		{"./nosuch", 127, "no such file"},
		{"./badinterp", 127, "the interpreter its #! line names (/nonexistent/interpreter) does not"},
		// A script saved with Windows line endings names "/bin/sh\r",
		// which the system does not find: the stderr said only "no
		// such file or directory", of a file that was there.
		{"./crlf.sh", 127, "its #! line ends in a carriage return"},
	}
	for _, mode := range []string{"off", "require"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "require" {
				needSandbox(t)
			}
			root := workspace(t, map[string]string{"noexec.sh": "#!/bin/sh\necho ran\n", "adir/x": "", "badfmt": "\x7fELFnot really", "badinterp": "#!/nonexistent/interpreter\necho ran\n", "crlf.sh": "#!/bin/sh\r\necho ran\r\n"})
			for _, p := range []string{"badfmt", "badinterp", "crlf.sh"} {
				if err := os.Chmod(filepath.Join(root, p), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			s := start(t, root, "--mode", "trusted", "--sandbox", mode)
			for _, c := range cases {
				res := s.call("exec_command", map[string]any{"program": c.program})
				if res.IsError {
					t.Errorf("%s: an error, not an exit: %s", c.program, text(res))
					continue
				}
				m := structured(t, res)
				stderr, _ := m["stderr"].(string)
				if m["state"] != "exited" || m["exitCode"] != c.code || !strings.Contains(stderr, c.says) || strings.Contains(stderr, "ran") {
					t.Errorf("%s: %s %v, stderr %q; want exited %v saying %q", c.program, m["state"], m["exitCode"], stderr, c.code, c.says)
				}
			}
			// A program named without a folder and not on PATH is still
			// refused before any job starts.
			if res := s.call("exec_command", map[string]any{"program": "no-such-program-juju"}); !res.IsError || !strings.Contains(text(res), "NOT_FOUND") {
				t.Errorf("a name not on PATH: %s", text(res))
			}
		})
	}
}

// exec_command looks a program up on the PATH the command gets, as
// run_command's shell does: a relative folder of it (PATH=bin:…, as
// ./node_modules/.bin is often added) from the command's folder, and a
// folder inside the roots, which juju leaves out of its own PATH only. Both
// were NOT_FOUND, sandboxed or not, while run_command ran them.
func TestExecCommandFindsProgramsAsTheShellDoes(t *testing.T) {
	root := workspace(t, map[string]string{
		"sub/bin/mytool": "#!/bin/sh\necho mytool in \"$PWD\"\n",
		"tools/projtool": "#!/bin/sh\necho projtool\n",
	})
	for _, p := range []string{"sub/bin/mytool", "tools/projtool"} {
		if err := os.Chmod(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", "bin"+string(filepath.ListSeparator)+filepath.Join(root, "tools")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	s := start(t, root, "--mode", "trusted", "--sandbox", "off")
	for _, sandboxed := range []bool{false, true} {
		t.Run(fmt.Sprint("sandbox=", sandboxed), func(t *testing.T) {
			if sandboxed {
				needSandbox(t)
			}
			for program, want := range map[string]string{"mytool": "mytool in " + filepath.Join(root, "sub") + "\n", "projtool": "projtool\n"} {
				res := s.call("exec_command", map[string]any{"program": program, "cwd": "sub", "sandbox": sandboxed})
				if res.IsError {
					t.Errorf("%s: %s", program, text(res))
					continue
				}
				if m := structured(t, res); m["stdout"] != want || m["exitCode"] != float64(0) {
					t.Errorf("%s: %v, want stdout %q", program, m, want)
				}
			}
		})
	}
}
