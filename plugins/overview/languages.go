package overview

// languageOf names the language of a file by the key the walk counts it
// under (lower-case extension, or a name such as Makefile). Data and prose
// formats (JSON, YAML, Markdown, text) are not languages here.
var languageOf = map[string]string{
	".go": "Go", ".rs": "Rust", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++", ".hh": "C++",
	".java": "Java", ".kt": "Kotlin", ".kts": "Kotlin", ".scala": "Scala", ".groovy": "Groovy", ".gradle": "Groovy", ".clj": "Clojure",
	".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript", ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
	".py": "Python", ".pyi": "Python", ".rb": "Ruby", ".php": "PHP", ".pl": "Perl", ".pm": "Perl", ".lua": "Lua", ".r": "R",
	".swift": "Swift", ".m": "Objective-C", ".mm": "Objective-C", ".cs": "C#", ".fs": "F#", ".vb": "Visual Basic",
	".dart": "Dart", ".ex": "Elixir", ".exs": "Elixir", ".erl": "Erlang", ".hs": "Haskell", ".ml": "OCaml", ".zig": "Zig", ".nim": "Nim",
	".jl": "Julia", ".elm": "Elm", ".sol": "Solidity", ".v": "V", ".d": "D",
	".sh": "Shell", ".bash": "Shell", ".zsh": "Shell", ".fish": "Shell", ".ps1": "PowerShell", ".bat": "Batchfile",
	".s": "Assembly", ".asm": "Assembly", ".wat": "WebAssembly",
	".html": "HTML", ".htm": "HTML", ".css": "CSS", ".scss": "SCSS", ".sass": "Sass", ".less": "Less",
	".vue": "Vue", ".svelte": "Svelte", ".astro": "Astro",
	".sql": "SQL", ".proto": "Protocol Buffers", ".graphql": "GraphQL", ".tf": "HCL", ".hcl": "HCL", ".nix": "Nix",
	".cmake": "CMake", ".mk": "Makefile", "Makefile": "Makefile", "GNUmakefile": "Makefile", "makefile": "Makefile",
	"Dockerfile": "Dockerfile", "Containerfile": "Dockerfile", "justfile": "Just", "Justfile": "Just",
}
