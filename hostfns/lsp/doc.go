// Package lsp provides the juju_lsp host function (capability lsp): the
// language servers the owner registered (`juju lsp add`, see
// internal/lspconfig), started by juju and asked on a plugin's behalf.
//
// A Manager keeps one server per registration and server root (the folder
// of the nearest root marker above a file, inside its workspace root, the
// markers taken in order; or the workspace root), started lazily on the first call about a file of
// its language: its own process group, an environment scrubbed of secrets
// (sandbox.Scrub), stdin and stdout owned by juju, the folder of its
// root as working directory. juju speaks JSON-RPC 2 with Content-Length
// framing to it (rpc.go: each message decoded once, its result left raw
// for the operation's own decoding), says it counts
// characters in UTF-16, and converts every position to and from juju's
// 1-based code-point columns on the way (line 1's counted after a
// byte-order mark opening the file, which read_file does not show), and
// between read_file's lines, ended by "\n", and the server's, which a
// lone "\r" ends too unless the server is gopls.
//
// What juju sends a server: the text of the files a call is about (read
// through the path policy: never a secret, never a denied path, never
// anything outside the roots), and notifications of juju's own writes (the
// journal's observer, Changed) before the next query, so answers are
// current after an edit; files a command or the owner's editor changed are
// found by a look over the server's root when the workspace's epoch moved
// or the last look is a few seconds old (sync.go, commandChanges). What comes back is filtered the same way: a
// location in a secret or denied file is dropped, one outside every root is
// named but never read. Every path is resolved by the policy each call;
// what a stat through it says is unchanged since a read whose stamp can be
// trusted is not read again (stamp.go): the file asked about (sync.go,
// unchanged), a file an answer quotes (texts.go), the folders that decide
// a file's server root (roots.go).
//
// Readiness is awaited on the server's own signals, never on a fixed
// sleep: a request waits for the server's answer (gopls answers only once
// it has loaded the workspace), workspace symbols and pushed diagnostics
// wait until every work-done progress the server began has ended, and
// servers that announce the end of their first analysis in a log message
// (pyright: "Found N source files") are waited for until they do. Pushed
// diagnostics are waited on per file: a publication counts when it arrived
// after the last change juju sent (a generation counter) and, when the
// server gives one, carries the file's current version. Servers that
// declare textDocument/diagnostic, statically or by registration, are
// asked instead (pulled).
//
// A request juju stops waiting for (the call's time ran out, or its
// client cancelled it) is followed by $/cancelRequest with its id, so the
// server stops computing an answer nobody reads instead of making the
// next calls wait behind it; a late answer finds no pending call and is
// dropped, and ids are never reused (rpc.go, cancel).
//
// Faults: a server that exits is restarted by the next call, and a call
// that failed because it died is retried once; a server that left a call
// without an answer is asked for a barrier first by the next, and one that
// does not answer it is stopped and restarted (client.probe); a command that does not
// exist, or a server that does not answer initialize in time, is a TIMEOUT
// or NOT_FOUND error naming the server, and the manager keeps serving. At
// Close every server is asked to shut down, given a bounded wait, and its
// process group is killed.
package lsp
