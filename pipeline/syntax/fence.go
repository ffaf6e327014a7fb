package syntax

// fenceTags are the Markdown code-block info strings (GitHub Linguist's
// names) of the grammars' languages: the spec variant fences signatures
// with them (stages/spec). The language support matrix checks that every
// grammar has one (pipeline/langsupport, piece "fence").
var fenceTags = map[string]string{
	"Python": "python", "Go": "go", "Java": "java", "Rust": "rust", "C": "c", "C++": "cpp",
	"C/C++ Header": "cpp", "TypeScript": "typescript", "TSX": "tsx", "JavaScript": "javascript", "C#": "csharp",
}

// FenceTag is the code-block language of a grammar's language, "" when it
// has none.
func FenceTag(language string) string { return fenceTags[language] }
