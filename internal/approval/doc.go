// Package approval keeps the owner's decisions on tool calls that the trust
// mode holds back (SPEC §5). A call waiting for the owner is a record in the
// workspace's state folder; the owner approves or denies it from another
// process (`juju approvals`), and the server, polling, sees the decision.
//
// The store needs no lock held across processes. Each approval is a folder
// of small files, each written once: args.json (the call's arguments,
// exactly as the plugin would get them, for the owner to read in full),
// request.json (what is asked, with the arguments in short), then
// decision.json (approved or denied, by whom) and used.json (the approved or
// denied call was answered). The arguments have a file of their own so that
// the polls and the matching of retries, which read every request.json,
// never read a large file content. Every file is written to a temporary name and
// linked into place, which fails when the file already exists, so the first
// decision wins and an approval is used at most once, whatever the number of
// processes racing.
package approval
