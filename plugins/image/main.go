// Command image is juju's core image plugin (core-image): read_image,
// which decodes a PNG, JPEG, GIF or WebP file and hands it to the model,
// scaled down and re-encoded when it is large.
//
// It is a module of its own, apart from the core plugin, for two reasons.
// The image decoders and the scaler are a sixth of what the core module
// would otherwise compile, and read_image is seldom called: apart, every
// session's first call compiles or loads a module that much smaller, and
// only a session that reads an image pays for this one, on its first
// read_image (its manifest is lazy: the warm-up leaves it out). And the
// decoders parse files from the workspace, which may be hostile: here they
// run in a module granted fs.read and nothing else, so no fault in them
// reaches fs.write, git or the plugin's state. See docs/RATIONALE.md,
// "read_image is a module of its own".
package main

func main() {}
