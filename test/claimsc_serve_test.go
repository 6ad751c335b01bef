//go:build unix

package test

import (
	"os"
	"path/filepath"
	"testing"
)

// The OAuth store holds what juju serve lets in: a user who may write it
// can add a grant for a token of their own choosing and reach every tool
// as an OAuth client. juju writes it 0600; one another user owns or may
// write (made so by hand, a shared folder's umask) is refused as the
// token file and config file are: no grant in it is honoured, and the
// log says why.
func TestServeOAuthStoreOthersMayWriteRefused(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	access := srv.oauthGrant(t, "store-owner", 1)
	bearer := map[string]string{"Authorization": "Bearer " + access.token}
	if res, body := srv.raw(t, "POST", "/mcp", writeCall("granted.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 200 {
		t.Fatalf("the grant: %d %s", res.StatusCode, body)
	}
	port := srv.port
	srv.stop()
	store := filepath.Join(srv.home, "state", "oauth", "oauth.json")
	if err := os.Chmod(store, 0o666); err != nil {
		t.Fatal(err)
	}
	srv = startServeHome(t, srv.home, root, "--mode", "trusted", "--addr", "127.0.0.1:"+port)
	if res, _ := srv.raw(t, "POST", "/mcp", writeCall("from-a-writable-store.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 401 {
		t.Fatalf("a grant of a store every user may write was honoured: %d", res.StatusCode)
	}
	mustNotExist(t, root, "from-a-writable-store.txt")
	if !srv.logged("can be written by every user") {
		t.Errorf("the log does not say why the store was refused:\n%s", srv.log)
	}
}
