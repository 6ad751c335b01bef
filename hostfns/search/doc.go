// Package search provides the juju_search host function (capability
// fs.read): a content search of the workspace run by ripgrep, so that a
// read-tier plugin can search fast without the general exec capability.
//
// The plugin sends a structured request (pattern, literal, case, folder,
// file glob, mode, context, limits); the host alone builds rg's argument
// list from it:
//
//	rg --no-config --no-follow --hidden --no-ignore --no-messages
//	   --iglob=!.git [--ignore-file=LEFTOUT] --iglob=!SECRET… --iglob=!DENY…
//	   --null --with-filename --no-heading --line-number --column --color=never
//	   --max-count=N --max-columns=65536 [-F] [-i | -s]
//	   [--type-add=juju:GLOB --type=juju] --regexp=PATTERN -- PATH
//
// run in the root's real folder, with an empty stdin, an empty environment,
// a time cap, a cap on its data memory (rgMaxData) and a bound on the
// output read. --max-count takes from a file only the lines the answer
// can hold (perFile) and --max-columns leaves out a line of 64 KiB or
// more with a note, which the host names as a long line: rg holds each
// file's lines in memory before it prints them. The pattern is one argument
// (--regexp=…), so no pattern can be read as a flag; the path has been
// resolved by the path policy and comes after "--".
//
// rg reads no ignore file of the tree (--no-ignore): it would open a
// .gitignore by path, following a link to /dev/zero, a FIFO or a file
// outside the roots, and read those of the folders above the root. The
// host walks the folder first as the fs functions do (fs.LeftOut: .gitignore
// files read only when regular, the root's .git/info/exclude, .git never
// entered) and writes LEFTOUT, a temporary ignore file naming by exact path
// every entry that walk leaves out: what .gitignore excludes and what the
// policy withholds (juju's own folders, secrets, denied paths, names
// covered by a glob written from a nested root). So both engines of
// search_code see the same files, and rg opens no withheld file by name;
// the secret and deny globs are given besides, for files made since the
// walk.
//
// rg only nominates: every byte the search returns was read by the host
// through the policy. rg reads by path, so a folder swapped for a link
// out of the root while it runs can make it read outside files; its output
// (PATH\0LINE:COLUMN:TEXT, one matching line each, in every mode) is
// therefore taken as candidates, never as content. Each file rg names is
// checked by the path policy (name rules on the path and every folder
// above it, then Resolve and Open, which reach the file again without
// following links and refuse a multiply-linked private key) and read
// through the handle Open returns, once, up to the last line needed. A
// candidate is kept only when the host read the same line at its number;
// the line and its context lines returned are the host's, and files and
// counts are derived from the kept lines alone. A candidate the host did
// not confirm is dropped without a word, and the caps count kept lines
// alone: rg may have read an outside file under the name (a folder swapped
// for a link), so either would tell whether it matched. A file the policy
// refuses, or whose name is not UTF-8, is passed over without a word: rg
// names a file only when the pattern matches it, so counting refused
// files (the result's Hidden and Unnamed, no longer set) would let a
// pattern read them. A withheld or outside file's content, name or count
// therefore never leaves the host, whatever the pattern; what rg read can
// only make some of the root's own matches missing.
//
// rg's threads name files in the order they finish them; a search the
// result cap cuts is therefore run again with --sort=path (one thread),
// so that the answer under the cap is the first files in path order
// (the host's own search likewise, on one goroutine over the sorted walk).
//
// The host reads lines as rg does with its default encoding (a UTF-8 or
// UTF-16 byte-order mark makes the file decoded), so that both number and
// spell lines alike.
//
// A file glob without a slash becomes an rg file type, which, unlike
// --glob, cannot bring back files .gitignore excludes; a glob with a slash
// is matched by the host on the paths rg reports.
//
// When rg is not installed, or refuses a pattern Go's regexp takes
// (\Q…\E), the host does rg's part itself (native.go): it walks as the
// glob host function does (fs.Scan: .gitignore, secret and denied names
// withheld, no symlink followed), reads the files on a few goroutines,
// matches them with Go's regexp and writes its nominations as rg prints
// them, so the collector checks them the same way. Results then name the
// engine "juju". It never answers Unavailable. It stops at the deadline or
// a cancellation within one regexp call, each bounded by matchWork (files
// are tested in blocks of lines, a long line through a reader that checks
// the deadline), writes a file's records in pieces of writeChunk, at most
// perFile of them, and refuses a pattern whose program is larger than
// maxProgram. Nothing inside a .git folder is searched, even named.
package search
