//go:build !wasip1

package juju

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func init() {
	Discoverer("test-disc", []string{"Testfile", "sub/*.test"}, func(req abi.DiscoverRequest) (*abi.DiscoverResult, error) {
		switch req.Files[0] {
		case "panic":
			panic("boom")
		case "coded":
			return nil, Errorf(abi.TooLarge, "too big")
		case "plain":
			return nil, errors.New("secret host detail")
		case "nil":
			return nil, nil
		}
		res := &abi.DiscoverResult{}
		for _, f := range req.Files {
			res.Tasks = append(res.Tasks, abi.Task{Name: "t", Runner: "test", Command: "test t", Cwd: ".", File: f, Line: 1, Kind: abi.KindTest})
		}
		res.Warnings = []abi.Warning{{File: "bad", Message: "broken"}}
		return res, nil
	})
}

func TestDiscoverDescribe(t *testing.T) {
	d, err := Describe()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, s := range d.Discoverers {
		if s.Name == "test-disc" {
			found = len(s.Files) == 2 && s.Files[1] == "sub/*.test"
		}
	}
	if !found {
		t.Fatalf("Describe lists %+v, want test-disc with its two globs", d.Discoverers)
	}
}

func TestServeDiscover(t *testing.T) {
	for _, tc := range []struct {
		name, in, wantCode string
		wantTasks          int
	}{
		{"ok", `{"discoverer":"test-disc","files":["a/Testfile","Testfile"]}`, "", 2},
		{"nil result", `{"discoverer":"test-disc","files":["nil"]}`, "", 0},
		{"coded error", `{"discoverer":"test-disc","files":["coded"]}`, "TOO_LARGE", 0},
		{"plain error hidden", `{"discoverer":"test-disc","files":["plain"]}`, "INTERNAL", 0},
		{"panic", `{"discoverer":"test-disc","files":["panic"]}`, "INTERNAL", 0},
		{"unknown", `{"discoverer":"nope","files":[]}`, "INVALID_ARGUMENT", 0},
		{"bad json", `{`, "INVALID_ARGUMENT", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res abi.DiscoverResult
			out := serveDiscover([]byte(tc.in))
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("output %s: %v", out, err)
			}
			if res.Tasks == nil {
				t.Errorf("tasks is null in %s; want a list", out)
			}
			got := ""
			if res.Error != nil {
				got = string(res.Error.Code)
				if tc.name == "plain error hidden" && res.Error.Message != "the discoverer test-disc failed unexpectedly" {
					t.Errorf("message %q leaks the cause", res.Error.Message)
				}
			}
			if got != tc.wantCode || len(res.Tasks) != tc.wantTasks {
				t.Errorf("got code %q and %d tasks (%s), want %q and %d", got, len(res.Tasks), out, tc.wantCode, tc.wantTasks)
			}
		})
	}
}

func TestDiscovererPanicsOnMistakes(t *testing.T) {
	fn := func(abi.DiscoverRequest) (*abi.DiscoverResult, error) { return nil, nil }
	for name, reg := range map[string]func(){
		"bad name":  func() { Discoverer("Bad Name", []string{"x"}, fn) },
		"duplicate": func() { Discoverer("test-disc", []string{"x"}, fn) },
		"no globs":  func() { Discoverer("test-none", nil, fn) },
		"no func":   func() { Discoverer("test-nofn", []string{"x"}, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			reg()
		})
	}
}

// The hand check of a discoverer's name agrees with its pattern.
func TestValidDiscovererName(t *testing.T) {
	re := regexp.MustCompile(discovererNamePattern)
	names := []string{"", "a", "go-mod", "-a", "a-", "A", "a_b", "a.b", "0", "é", strings.Repeat("a", 64), strings.Repeat("a", 65), "a b", "make\n"}
	for _, n := range names {
		if got, want := validDiscovererName(n), re.MatchString(n); got != want {
			t.Errorf("%q: %v, the pattern says %v", n, got, want)
		}
	}
}
