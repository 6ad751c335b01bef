// Package journal is juju's write path: the fs.write host functions and the
// journal that makes every write reversible.
//
// One bbolt database per workspace (journal.db in the workspace's state
// folder, never inside a root) records every change: who made it (client,
// plugin, tool, the audit id of the call), when, each path with its
// sha256 and mode before and after, a bounded unified diff, and whether it
// was rolled back. Pre-images are stored content-addressed (sha256), so a
// change can always be undone.
//
// A change is all-or-nothing, also across a crash. The order is:
//
//  1. under the database's exclusive lock, compute every path's new state
//     and check each path's current hash against what the caller expects;
//  2. commit an intent record (state pending) with the pre-images, synced;
//     meanwhile (on Linux) each new content is written to an unnamed file
//     in its folder (O_TMPFILE) and synced: nothing has a name yet, so a
//     crash before the intent is durable leaves nothing behind;
//  3. write each file atomically — a temporary file in the same folder
//     (the unnamed one, linked under the name the intent records, or one
//     written now and synced), rename over the name, fsync the folder —
//     checking just before each rename that the file is still what step 1
//     read;
//  4. mark the record done.
//
// Whoever opens the database next (the same server, another server on the
// same workspace, or `juju rollback`) finds a pending record left by a
// crashed writer and settles it: if every path already holds its new state
// the change is kept, otherwise every path is put back to its old state
// from the stored pre-images and the record is dropped. Temporary files
// named in the record are removed either way.
//
// The journal is bounded (Limits: 30 days or 256 MiB by default). Prune
// removes the oldest changes past the limits, and every pre-image no kept
// change refers to, in one transaction; the newest change pruned is
// remembered, so a rollback of a pruned change says it was pruned. A prune
// that freed much of the file compacts it into a new file renamed over the
// old one (bbolt files never shrink by themselves); a process that was
// waiting for the old file's lock notices and opens the new one. A server
// prunes at start and, past the size limit, after a change.
//
// The database is opened per operation, with a lock timeout, and closed
// again: its file lock is the workspace's write lock across processes,
// held only for the few milliseconds of one change, so a CLI in another
// terminal gets in while a server runs.
package journal
