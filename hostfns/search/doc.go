// Package search provides the juju_search host function (capability
// fs.read): a content search of the workspace run by ripgrep, so that a
// read-tier plugin can search fast without the general exec capability.
//
// The plugin sends a structured request (pattern, literal, case, folder,
// file glob, mode, context, limits); the host alone builds rg's argument
// list from it:
//
//	rg --no-config --no-follow --hidden --no-require-git --no-ignore-global
//	   --no-ignore-dot --no-messages --iglob=!.git --iglob=!SECRET… --iglob=!DENY… [--json | -l | -c --null]
//	   [-F] [-i | -s] [--context=N] [--type-add=juju:GLOB --type=juju]
//	   --regexp=PATTERN -- PATH
//
// run in the root's real folder, with an empty stdin, an empty environment,
// a time cap and a bound on the output read. The pattern is one argument
// (--regexp=…), so no pattern can be read as a flag; the path has been
// resolved by the path policy and comes after "--".
//
// .gitignore files (the root's, nested ones, .git/info/exclude) are
// honoured as the fs functions honour them, whether or not the root is a
// git repository; git's global excludes file and rg's own .ignore files
// are not, so both engines of search_code see the same files.
//
// The exclusions keep rg away from secrets and denied paths, but they are
// not the last word: every file rg reports is checked again by the path
// policy (name rules on the path and every folder above it, then Resolve
// and Open, which refuse a multiply-linked private key), and a file that
// fails is dropped with all its lines before anything is kept. A secret's
// content therefore never leaves the host, whatever the pattern.
//
// A file glob without a slash becomes an rg file type, which, unlike
// --glob, cannot bring back files .gitignore excludes; a glob with a slash
// is matched by the host on the paths rg reports.
//
// When rg is not installed the function answers Unavailable and the plugin
// searches by itself over the fs host functions.
package search
