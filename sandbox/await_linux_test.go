package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// startAwaiting starts, with the real bubblewrap, a sandbox for p whose
// helper waits for its command on the socket it is given at descriptor
// 3, and returns juju's end of that socket once the helper said it is
// ready.
func startAwaiting(t *testing.T, p Policy) (*exec.Cmd, *os.File) {
	t.Helper()
	helper := testHelper(t)
	p = p.clean()
	inner := slices.Concat(helper, HelperArgs(p, 0), []string{"--await", "3"})
	cmd, mine := startArgv(t, Bubblewrap{Path: DetectBubblewrap(t.Context()).Path}.Args(p, "/", helper[0], inner))
	var b [1]byte
	if n, err := mine.Read(b[:]); n != 1 || b[0] != ready {
		t.Fatalf("the helper did not say it was ready: %q, %v", b[:n], err)
	}
	return cmd, mine
}

// startArgv starts argv with the far end of a new order socket at
// descriptor 3, and returns juju's end.
func startArgv(t *testing.T, argv []string) (*exec.Cmd, *os.File) {
	t.Helper()
	mine, theirs, err := OrderSocket()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.ExtraFiles = []*os.File{theirs}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	t.Cleanup(func() { mine.Close(); cmd.Process.Kill(); cmd.Wait() })
	return cmd, mine
}

func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

func logs(t *testing.T) (*os.File, *os.File) {
	dir := t.TempDir()
	out, err1 := os.Create(filepath.Join(dir, "out"))
	errf, err2 := os.Create(filepath.Join(dir, "err"))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	t.Cleanup(func() { out.Close(); errf.Close() })
	return out, errf
}

func read(t *testing.T, f *os.File) string {
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A sandbox built ahead of its command runs the order it is handed, in
// the order's folder, with the order's stdout and stderr and the
// sandbox's environment; it runs nothing when juju lets it go, or when
// the order is bad.
func TestAwaitedSandboxRunsItsOrder(t *testing.T) {
	needBubblewrap(t)
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	os.Mkdir(sub, 0o755)
	p := Policy{Write: []string{root}}

	t.Run("order", func(t *testing.T) {
		cmd, sock := startAwaiting(t, p)
		out, errf := logs(t)
		script := "pwd; echo tmp=$TMPDIR; echo oops >&2; touch made; exit 7"
		if err := HandOrder(sock, "/bin/bash", []string{"bash", "-c", script}, nil, sub, out, errf, nil); err != nil {
			t.Fatal(err)
		}
		if code := exitCode(t, cmd); code != 7 {
			t.Errorf("exit %d, stderr %q", code, read(t, errf))
		}
		if got := read(t, out); got != sub+"\ntmp=/tmp\n" {
			t.Errorf("stdout %q", got)
		}
		if got := read(t, errf); got != "oops\n" {
			t.Errorf("stderr %q", got)
		}
		if _, err := os.Stat(filepath.Join(sub, "made")); err != nil {
			t.Errorf("the command did not write its folder: %v", err)
		}
	})
	t.Run("let go", func(t *testing.T) {
		cmd, sock := startAwaiting(t, p)
		sock.Close()
		if code := exitCode(t, cmd); code != 0 {
			t.Errorf("exit %d", code)
		}
	})
	t.Run("bad order", func(t *testing.T) {
		cmd, sock := startAwaiting(t, p)
		out, errf := logs(t)
		if err := HandOrder(sock, "/bin/bash", []string{"bash", "-c", "echo ran"}, nil, "sub", out, errf, nil); err != nil {
			t.Fatal(err)
		}
		if code := exitCode(t, cmd); code != HelperExitCode || read(t, out) != "" || !strings.Contains(read(t, errf), "not absolute") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, read(t, out), read(t, errf))
		}
	})
}

// TestHelperRefusesReadOnlyNotBound builds, with the real bubblewrap, the
// sandbox a git control path that appeared after bubblewrap started would
// give (bwrap bound nothing there), and checks that the helper runs
// nothing in it; with the bind, the command runs and cannot write there.
func TestHelperRefusesReadOnlyNotBound(t *testing.T) {
	needBubblewrap(t)
	helper := testHelper(t)
	bw := Bubblewrap{Path: DetectBubblewrap(t.Context()).Path}
	root := t.TempDir()
	hooks := filepath.Join(root, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `echo evil > .git/hooks/pre-commit && echo wrote; echo ran`
	bound := Policy{Write: []string{root}, ReadOnly: []string{hooks}}.clean()
	unbound := Policy{Write: []string{root}}.clean()
	for _, awaited := range []bool{false, true} {
		t.Run("await="+strconv.FormatBool(awaited), func(t *testing.T) {
			for _, tc := range []struct {
				name  string
				binds Policy
				code  int
				want  string
			}{
				{"bound", bound, 0, "ran"},
				{"not bound", unbound, HelperExitCode, "is not read-only in the sandbox"},
			} {
				var got string
				var code int
				if !awaited {
					inner := slices.Concat(helper, HelperArgs(bound, 0), []string{"--", "bash", "-c", script})
					got, code = runArgv(t, bw.Args(tc.binds, root, helper[0], inner), root)
				} else {
					inner := slices.Concat(helper, HelperArgs(bound, 0), []string{"--await", "3"})
					cmd, mine := startArgv(t, bw.Args(tc.binds, "/", helper[0], inner))
					out, errf := logs(t)
					if err := HandOrder(mine, "/bin/bash", []string{"bash", "-c", script}, nil, root, out, errf, nil); err != nil {
						t.Fatal(err)
					}
					code = exitCode(t, cmd)
					got = read(t, out) + read(t, errf)
				}
				if code != tc.code || !strings.Contains(got, tc.want) || strings.Contains(got, "wrote") || (tc.code != 0 && strings.Contains(got, "ran")) {
					t.Errorf("%s: exit %d:\n%s", tc.name, code, got)
				}
			}
			if _, err := os.Lstat(filepath.Join(hooks, "pre-commit")); err == nil {
				t.Error("a hook was written")
			}
		})
	}
}
