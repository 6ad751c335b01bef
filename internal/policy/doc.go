// Package policy is juju's path policy: the one place that decides whether a
// path named by a model or a plugin may be touched, and where it really is.
//
// # Roots and resolution
//
// A Policy holds one or more workspace roots, each opened as an *os.Root.
// Resolve walks a requested path one component at a time, with Lstat and
// Readlink done through a directory handle opened from the root, so that
// every `..` and every symbolic link is resolved by juju, never by the
// kernel on a whole path:
//
//   - A relative path is taken from the first root; an absolute path must lie
//     under a root, written with the root as given or with its real
//     (symlink-free) spelling.
//   - A symlink is followed when its target, written relative or absolute,
//     resolves inside any root; one that leads out is PATH_DENIED, even when
//     it dangles. A dangling link inside a root is NOT_FOUND. After 40 links
//     the path is INVALID_ARGUMENT (a loop).
//   - `..` above a root leaves the roots. Outside the roots nothing is looked
//     at on disk: the remaining components are applied lexically, and the
//     walk continues only if they lead back under a root. A path that ends
//     outside is PATH_DENIED, whether or not it exists.
//   - A backslash is an ordinary character on Unix: `..\x` is one name.
//
// # Secrets, deny rules, juju's own state
//
// Every name the walk reaches is checked before it is looked at on disk: the
// names in the request, every symlink's own name and every name of its
// target. A path is a secret when it or any folder above it matches a secret
// glob (the built-in list, extended by Config.Secrets and never shrunk), and
// denied when it or a folder above it matches a deny glob (Config.Deny).
// Anything inside Config.Private (juju's state, config, data and cache
// folders, its config file and log file) is a secret too. A glob without a slash matches a name at any
// depth (like .gitignore); a glob with a slash is matched against the whole
// root-relative path. With one root inside another, a path inside both is
// judged by its path from each of them, and the strongest refusal wins: a
// glob with a slash holds however the path is reached. Matching ignores letter case, so that `.ENV` on a
// case-insensitive file system is still `.env`: for the globs, juju's own
// folders and files and the .git rule alike, with ſ folded to s and ı to i
// as such file systems fold them (fold). Secrets are reported as
// SECRET_DENIED however they are reached (a link, `..`, an absolute path),
// never as NOT_FOUND.
//
// # Opening
//
// Open reaches the resolved path again without trusting the kernel's path
// walk: on Linux with one openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS) for a
// file (Rel is symlink-free by construction, so any symlink met is a
// change), elsewhere through folder handles checked one by one; then it
// checks that the opened object is the one Resolve saw: the same device,
// number and type (SameFile; a file system may give a FIFO made in a
// removed file's place that file's number, and the type tells them apart). A
// folder swapped for a symlink between Resolve and Open therefore cannot
// redirect the read: nothing leaves the root (os.Root and openat2 refuse),
// and a redirection inside it is FILE_CHANGED. The check is about the
// object: a file moved elsewhere in the root after Resolve and reached
// through a new link is still the file Resolve allowed. Special files
// (FIFOs, sockets, devices) are never opened.
//
// OpenRead is Open for a caller that only reads: on Linux it reads a
// regular file through the descriptor openat2 gave, without an *os.File,
// whose making costs two system calls (its flags, and the poller's refusal
// of a regular file); fs.read, the path of every read_file, uses it.
//
// On Linux, Resolve also tries a plain relative request (no "..") with one
// openat2 before walking: when no name on the way is a symlink, the name
// rules checked on the request are the rules of the resolved path.
//
// # Hard links
//
// A regular file with more than one hard link is readable: package managers
// (pnpm, Nix, ccache …) hard-link files legitimately, and juju cannot learn
// the file's other names, so it cannot apply the name rules to them. The one
// exception closes the obvious abuse: a multiply-linked file whose first
// 64 KiB contain a private key (a PEM block's "PRIVATE KEY-----", PuTTY's
// "PuTTY-User-Key-File-" or age's "AGE-SECRET-KEY-1") is SECRET_DENIED. The check runs in Open, so it covers every read, hash and
// search that goes through the policy; the journal, which reads the file a
// change replaces through folder handles of its own, applies it with
// LinkedKey. Listings and globs show only names and do not read content.
//
// # Writes
//
// Writable says whether a resolved path may be changed by file tools: never
// the root itself, anything named `.git` or inside it (hooks and config are
// code execution), secrets, denied paths or juju's own state.
package policy
