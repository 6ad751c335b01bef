// Package install adds, updates, re-grants, removes and re-verifies the
// plugins an owner installs into juju's data directory.
//
// An install never touches the installed set until the new plugin has
// passed every check: the plugin is staged in a temporary folder inside the
// data directory (from a plugin folder, a .tar.gz of one, or an https URL of
// such an archive), its manifest is validated, its wasm hashed against the
// manifest and against the owner's --sha256, its tools compared with what
// the wasm itself describes, its tool names checked against the core and
// the other installed plugins, and it is compiled once into the cache. Only
// then is the folder renamed into place, with grants.json pinning the
// sha256 of the wasm and of the manifest; the host refuses to load a plugin
// whose files no longer match that pin.
//
// Grants come only from the owner: the capabilities named with --grant or
// confirmed one by one at a prompt, never more than the manifest asks for.
// An update keeps the previous grants for the capabilities still asked for
// and grants nothing new on its own. No MCP tool reaches this package.
package install
