// Package fs provides the fs.read host functions: read, list, stat and glob
// (which is also the walk), each checked against the path policy of package
// host/policy before any file is touched.
//
// Decisions worth knowing:
//
//   - Symlinks in listings: a link whose target resolves to a visible path
//     inside a root is listed with Type "symlink", Target set to that path,
//     and the target's size and modification time. A link that leads outside
//     the roots, or to a secret or a denied path, is withheld and counted in
//     Hidden, like a secret: a listing never reveals anything about the
//     world outside the roots. A dangling or looping link is listed with no
//     Target.
//   - Symlinks in walks (glob): links are never followed into folders. A
//     matching link to a file inside a root is reported as a "symlink" entry
//     with its Target; a matching link to a folder is reported the same way
//     only with IncludeDirs; links that lead out, to secrets or nowhere are
//     left out.
//   - .gitignore: honoured by list and glob unless IncludeIgnored, whether or
//     not the root is a git repository: the root's .gitignore, nested ones,
//     and the root's .git/info/exclude (git's global excludes file is not
//     read, nor, for a root inside a repository, the .gitignore files and
//     .git/info/exclude above the root: they lie outside it). A folder named explicitly (the listed folder, the glob's base)
//     is used even if it is ignored, as ripgrep does; its entries are
//     filtered as usual. A .gitignore that is a symlink is not read.
//   - A base folder named through a symlink (list's path, glob's path or
//     the literal head of an absolute glob pattern) is resolved like any
//     path, so a link to a folder inside a root works there.
//   - The .git folder is listed by list, never entered by a walk, never a
//     glob match.
//   - Secrets, denied paths and juju's own state are never listed nor
//     matched; list counts them in Hidden, glob counts those its pattern
//     matches in Hidden (and the secrets among them in HiddenSecrets), so
//     a tool can answer SECRET_DENIED rather than "no match".
//   - Sizes are those of files; a folder's size is reported as 0.
//   - read sniffs the first 8 KiB for a NUL byte; a binary file comes back
//     with Binary set and no body unless the request asks for the bytes.
//     Byte ranges are cut at exact byte offsets (a cut may split a UTF-8
//     sequence); line ranges return whole lines unless one line alone
//     exceeds the cap.
package fs
