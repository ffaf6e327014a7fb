package prompts

// Data is what the templates read. The stages fill it from a candidate
// (stages/evidence); `lolbench prompts show` without a candidate fills it
// with placeholders.
type Data struct {
	// Candidate is the candidate id, e.g. "cpython-pep-0617"; the drafted
	// artifact's title names it.
	Candidate string
	EP        EP
	PR        PR
	// Scopes are the changed (file, class, function) tuples of the PR's
	// source files (pipeline/syntax), ScopeSkips the source files that
	// could not be resolved.
	Scopes     []Scope
	ScopeSkips []ScopeSkip
	// Mapping is the mapping artifact under review (auditors, judge); empty
	// for the drafter.
	Mapping string
	// Vocab lists the controlled vocabularies of the artifact.
	Vocab Vocab
	// StaticRules are the 28 static rules a drafted artifact must pass,
	// with their documentation (rules.All).
	StaticRules []StaticRule
	// Round is the drafting round a retry asks for (2 for the first
	// retry) out of Rounds; Violations are what the previous draft broke.
	Round, Rounds int
	Violations    []Violation
	// Audit is the rule an auditor prompt applies; Render sets it.
	Audit AuditRule
	// Links are the URLs a scan of the EP found (rule S8).
	Links []string
	// Judge holds the judge's vocabularies and the sections it scores.
	Judge Judge
}

// EP is the enhancement proposal.
type EP struct {
	ID     string // "PEP 617"
	Title  string
	Format string // "md" or "rst"
	// Text is the proposal's source, cut at a byte budget when Truncated
	// (Shown of Bytes bytes are included).
	Text      string
	Truncated bool
	Shown     int
	Bytes     int
	Sections  []Section
}

// Section is one heading of the EP, as pipeline/ep numbers it.
type Section struct {
	ID    string
	Level int
	Title string
}

// PR is the implementing pull request and its change.
type PR struct {
	Number int
	Title  string
	Base   string // 40-hex SHAs
	Head   string
	Files  []File
	// FileLimit and Budget are the patch byte limits per file and in all.
	FileLimit int
	Budget    int
}

// File is one file the PR changes.
type File struct {
	Path     string
	OldPath  string // set for a rename or copy
	Status   string // added, modified, deleted, renamed, ...
	Category string // lang.Categories
	Inserted int
	Deleted  int
	Binary   bool
	// Patch is the file's unified patch, possibly cut; Note says why it is
	// cut or absent ("" when it is whole).
	Patch string
	Note  string
}

// Scope is one changed (file, class, function) tuple; empty class and
// function mean a file-level change.
type Scope struct {
	File     string
	Class    string
	Function string
	New      bool
	Added    int // changed lines after the change
	Deleted  int // changed lines before it
}

// ScopeSkip is a changed source file whose scopes could not be resolved.
type ScopeSkip struct {
	File   string
	Reason string
}

// Vocab holds the controlled vocabularies of the mapping artifact
// (docs/mapping-format.md).
type Vocab struct {
	SectionCategories []string
	FileCategories    []string
	Roles             []string
	Reasons           []string
	Metrics           []string
}

// StaticRule is one of the 28 static rules.
type StaticRule struct {
	ID   int
	Name string
	Doc  string
}

// Violation is one finding fed back to the drafter: a static-rule
// violation, or a parse error of the artifact (Rule "parse").
type Violation struct {
	Rule    string // "R07 per-section-proportions" or "parse"
	Line    int    // artifact line, 0 when none
	Where   string
	Message string
}

// Judge holds what the judge prompt lists.
type Judge struct {
	Categories []Choice
	Modifiers  []Choice
	// Sections are the implementable sections of the mapping, the rows the
	// judge must return.
	Sections []Section
}

// Choice is one value of a judge vocabulary, with its meaning and its
// effect on the importance weight ("1.0", "+0.1").
type Choice struct {
	Key     string
	Meaning string
	Effect  string
}
