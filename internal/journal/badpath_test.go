package journal

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// Every operation refuses a path that cannot be one (a NUL byte, a name
// past 255 bytes, a path past 4,096, invalid UTF-8) as INVALID_ARGUMENT,
// wherever in the operation it is: delete and move resolve the folder
// above and the last name apart, and the last name once reached the disk
// and came back INTERNAL. The message quotes a bounded part of the path,
// and nothing is logged as a file system error.
func TestEveryOperationRefusesWhatCannotBeAPath(t *testing.T) {
	var logs bytes.Buffer
	f := newFixture(t, map[string]string{"a.txt": "hello\nworld\n"}, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	bad := map[string]string{
		"nul":           "a\x00b",
		"nul last":      "a.txt\x00x",
		"long name":     strings.Repeat("x", 300),
		"long last":     "sub/" + strings.Repeat("x", 300),
		"long path":     strings.Repeat("x", 5000),
		"huge path":     strings.Repeat("y", 10<<20),
		"not utf-8":     "a\xffb",
		"nul in folder": "a\x00/b",
	}
	ops := map[string]func(p string) wop{
		"write": func(p string) wop { return write(p, "x") },
		"edit": func(p string) wop {
			return wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: p, OldString: "a", NewString: "b"}}
		},
		"delete":    func(p string) wop { return wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: p}} },
		"move from": func(p string) wop { return wop{ChangeOp: abi.ChangeOp{Op: abi.OpMove, Path: p, To: "b.txt"}} },
		"move to":   func(p string) wop { return wop{ChangeOp: abi.ChangeOp{Op: abi.OpMove, Path: "a.txt", To: p}} },
		"mkdir":     func(p string) wop { return wop{ChangeOp: abi.ChangeOp{Op: abi.OpMkdir, Path: p}} },
		"patch new": func(p string) wop {
			return wop{ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: "--- /dev/null\n+++ b/" + p + "\n@@ -0,0 +1 @@\n+x\n"}}
		},
		"patch old": func(p string) wop {
			return wop{ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: "--- a/" + p + "\n+++ b/" + p + "\n@@ -1 +1 @@\n-a\n+b\n"}}
		},
	}
	for on, op := range ops {
		for bn, p := range bad {
			if strings.HasPrefix(on, "patch") && strings.ContainsAny(p, "\x00") {
				continue // the patch parser refuses it as a patch
			}
			t.Run(on+"/"+bn, func(t *testing.T) {
				for _, dry := range []bool{true, false} {
					_, e := f.do(dry, op(p))
					if e == nil || e.Code != abi.InvalidArgument {
						t.Fatalf("dry run %v: got %v, want INVALID_ARGUMENT", dry, e)
					}
					if len(e.Message) > 1000 {
						t.Errorf("a message of %d bytes: %.200s…", len(e.Message), e.Message)
					}
				}
			})
		}
	}
	if logs.Len() > 0 {
		t.Errorf("the refusals were logged as errors:\n%.2000s", logs.String())
	}
}
