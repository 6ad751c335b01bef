// Package text is the journal's pure text work: exact edits with their
// explanations when nothing matches (Edit), line-ending and BOM styles kept
// across a rewrite (Style), and unified diffs parsed and applied without
// fuzz (ParsePatch, ApplyHunks). It touches no file; its parsers are fuzzed.
package text
