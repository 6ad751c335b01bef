// Package visible renders text that a model, an MCP client or a plugin
// chose, for the owner to read in a prompt or a terminal: every character
// shows, none acts on the terminal, and nothing is cut unless the caller
// asks (Clip, Limits).
//
// The rendering:
//
//   - a run of three or more spaces becomes a marker: ⟨200 spaces⟩;
//   - tab, newline and carriage return become \t, \n and \r; any other C0
//     control character and DEL become \xNN (\x1b, \x00, \x7f);
//   - C1 controls, format characters (zero-width, bidi embeddings,
//     overrides and isolates, the BOM, tags), spaces other than the ASCII
//     space, line and paragraph separators, private-use, unassigned and
//     other invisible characters become \uNNNN or \UNNNNNNNN;
//   - a byte that is not part of valid UTF-8 becomes \xNN (always \x80 or
//     above, so never mistaken for a control character);
//   - in a word (a run without white space) holding ASCII letters or
//     digits, every other non-ASCII character but Latin-1's accented
//     letters becomes \uNNNN, so a look-alike cannot pass for an ASCII
//     letter or sign: g\u0456thub (a Cyrillic і), \u2013rf (an en dash),
//     e\u0301 (not é); so too in a word without ASCII letters that
//     could pass for another: all its letters ASCII look-alikes
//     (\u0435\u0445\u0435\u0441.\u0440\u0443 reads as exec.py), a character in
//     another form of an ASCII one (fullwidth ｅ or ；), a decomposed letter, or
//     letters of two scripts (disguised);
//   - a backslash becomes \\ and a literal ⟨ becomes \u27e8, so the text
//     can forge neither an escape nor a marker; between quotes (Quote) a "
//     becomes \".
//
// The rendering is one to one: two different texts never render the same,
// so what the owner reads is exactly what was sent.
package visible
