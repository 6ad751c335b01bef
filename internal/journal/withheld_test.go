package journal

import (
	"encoding/json"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// A path the owner makes a secret (or denies) after a change wrote it is
// withheld by the history as by read_file: its lines and hashes were kept
// in the change's record, and change_history served them to any client.
// The other paths of the change keep their diffs; a record from before
// each path's part of the diff was marked loses its whole diff.
func TestHistoryWithholdsPathsPrivateSince(t *testing.T) {
	f := newFixture(t, map[string]string{"config/prod.yml": "db_password: hunter2\nport: 1\n", "notes.txt": "visible line\n"})
	res := f.mustApply(edit("config/prod.yml", "port: 1", "port: 2"), edit("notes.txt", "visible", "VISIBLE"))
	all, _ := f.j.History(&abi.HistoryRequest{ChangeID: res.ChangeID})
	if !strings.Contains(all.Changes[0].Diff, "hunter2") {
		t.Fatalf("the diff before the owner's rule: %q", all.Changes[0].Diff)
	}

	for _, c := range []struct {
		name          string
		secrets, deny []string
		code          string
	}{{"a secret", []string{"config/prod.yml"}, nil, "a secret"}, {"denied", nil, []string{"config/**"}, "denied"}} {
		t.Run(c.name, func(t *testing.T) {
			pol, err := policy.New(policy.Config{Roots: []string{f.root}, Private: []string{f.state}, Secrets: c.secrets, Deny: c.deny})
			if err != nil {
				t.Fatal(err)
			}
			defer pol.Close()
			if f.j, err = Open(f.state, pol); err != nil {
				t.Fatal(err)
			}
			one, e := f.j.History(&abi.HistoryRequest{ChangeID: res.ChangeID})
			if e != nil {
				t.Fatal(e)
			}
			list, e := f.j.History(&abi.HistoryRequest{})
			if e != nil {
				t.Fatal(e)
			}
			for _, ci := range []abi.ChangeInfo{one.Changes[0], list.Changes[0]} {
				b, _ := json.Marshal(ci)
				if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), sum([]byte("db_password: hunter2\nport: 1\n"))) {
					t.Fatalf("the history serves the private file: %s", b)
				}
				for _, fc := range ci.Files {
					if fc.Path == "notes.txt" && fc.SHA256After == "" {
						t.Errorf("the visible file lost its hash: %+v", fc)
					}
				}
			}
			d := one.Changes[0].Diff
			if !strings.Contains(d, "+VISIBLE line") || !strings.Contains(d, "config/prod.yml is withheld: it is now "+c.code) {
				t.Fatalf("diff: %q", d)
			}

			// A record made before the parts were marked.
			err = f.j.withDB(func(db *bolt.DB) error {
				return db.Update(func(tx *bolt.Tx) error {
					r, err := getRecord(tx, res.ChangeID)
					if err != nil {
						return err
					}
					r.DiffSplit = false
					return putRecord(tx, r)
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			old, _ := f.j.History(&abi.HistoryRequest{ChangeID: res.ChangeID})
			if d := old.Changes[0].Diff; strings.Contains(d, "hunter2") || strings.Contains(d, "VISIBLE") || !strings.Contains(d, "withheld") {
				t.Fatalf("an older record's diff: %q", d)
			}
			if err := f.j.withDB(func(db *bolt.DB) error {
				return db.Update(func(tx *bolt.Tx) error {
					r, _ := getRecord(tx, res.ChangeID)
					r.DiffSplit = true
					return putRecord(tx, r)
				})
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
