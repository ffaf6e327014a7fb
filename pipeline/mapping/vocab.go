package mapping

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
)

// The vocabularies below are exported as ordered slices so that rule 4
// ("controlled vocabularies and required table schemas") and the docs list
// them from one place. The parser never checks them: a value outside a
// vocabulary is a rule violation with a line, not a parse error.
// File categories are lang.Categories; they are not repeated here.

// SectionCategory classifies an EP section (paper, section 3.2).
type SectionCategory string

// The EP-section categories, in report order.
const (
	Knowledge      SectionCategory = "knowledge"
	Implementation SectionCategory = "implementation"
	Evaluation     SectionCategory = "evaluation"
	Contextual     SectionCategory = "contextual"
	Process        SectionCategory = "process"
)

// SectionCategories lists every EP-section category in report order.
var SectionCategories = []SectionCategory{Knowledge, Implementation, Evaluation, Contextual, Process}

// ParseSectionCategory returns the category named s, or false when s is not
// in the vocabulary.
func ParseSectionCategory(s string) (SectionCategory, bool) {
	return lookup(SectionCategories, s)
}

// Role is how a PR file relates to the mapped sections.
type Role string

// The PR-file roles: a direct file implements a mapped section, an
// associated file supports one (tests, docs, build glue), an unmapped file
// is explained in "Unmapped PR Files".
const (
	RoleDirect     Role = "direct"
	RoleAssociated Role = "associated"
	RoleUnmapped   Role = "unmapped"
)

// Roles lists every PR-file role in report order.
var Roles = []Role{RoleDirect, RoleAssociated, RoleUnmapped}

// ParseRole returns the role named s, or false when s is not in the
// vocabulary.
func ParseRole(s string) (Role, bool) {
	return lookup(Roles, s)
}

// Reason says why an implementable section or a PR file is left unmapped.
// One vocabulary serves both tables.
type Reason string

// The unmapped reasons, in report order.
const (
	ReasonDeferred            Reason = "deferred"
	ReasonPreExisting         Reason = "pre-existing"
	ReasonOutOfScope          Reason = "out-of-scope"
	ReasonDocumentationOnly   Reason = "documentation-only"
	ReasonRuntimeBehavior     Reason = "runtime-behavior"
	ReasonExternalDependency  Reason = "external-dependency"
	ReasonTestOnly            Reason = "test-only"
	ReasonInsufficientContext Reason = "insufficient-context"
)

// Reasons lists every unmapped reason in report order.
var Reasons = []Reason{
	ReasonDeferred, ReasonPreExisting, ReasonOutOfScope, ReasonDocumentationOnly,
	ReasonRuntimeBehavior, ReasonExternalDependency, ReasonTestOnly, ReasonInsufficientContext,
}

// ParseReason returns the reason named s, or false when s is not in the
// vocabulary.
func ParseReason(s string) (Reason, bool) {
	return lookup(Reasons, s)
}

// ParseYesNo reads the Implementable and Mapped cells of the section
// classification summary, which hold exactly "yes" or "no".
func ParseYesNo(s string) (value, ok bool) {
	switch s {
	case "yes":
		return true, true
	case "no":
		return false, true
	}
	return false, false
}

func lookup[T ~string](vocab []T, s string) (T, bool) {
	for _, v := range vocab {
		if string(v) == s {
			return v, true
		}
	}
	return "", false
}

// The top-level parts of a mapping artifact, in canonical order. Each is a
// level-2 heading with exactly this text.
const (
	PartSCS              = "Section Classification Summary"
	PartPFS              = "PR File Summary"
	PartMappedSections   = "Mapped Sections"
	PartUnmappedSections = "Unmapped Implementable Sections"
	PartUnmappedFiles    = "Unmapped PR Files"
	PartStats            = "Global Statistics"
)

// Parts lists the top-level parts in canonical (rendering) order.
var Parts = []string{PartSCS, PartPFS, PartMappedSections, PartUnmappedSections, PartUnmappedFiles, PartStats}

// The sub-parts of a mapped-section block, level-4 headings that must
// appear in this order after the quote, requirement and counts line.
const (
	SubPartDirect     = "Direct modifications"
	SubPartAssociated = "Associated changes"
	SubPartSummary    = "Modification summary"
)

// Canonical table columns, as rule 4 expects them and as Render writes them
// for a table whose Columns are empty. Parsed tables keep the columns as
// written in Table.Columns.
var (
	SCSColumns             = []string{"#", "Section", "Title", "Implementable", "Category", "Mapped"}
	PFSColumns             = []string{"#", "File", "Category", "Role", "Direct sections", "Associated sections"}
	DirectColumns          = []string{"File", "Class", "Function"}
	AssociatedColumns      = []string{"File", "Class", "Function", "Reason"}
	UnmappedSectionColumns = []string{"Section", "Title", "Reason"}
	UnmappedFileColumns    = []string{"File", "Category", "Reason"}
	StatColumns            = []string{"Metric", "Value"}
)

// The metrics of the Global Statistics table, in canonical order. After
// them comes one "<category> files" row per file category present in the
// PR, in lang.Categories order (see CategoryMetric).
const (
	MetricEPSections            = "EP sections"
	MetricImplementable         = "Implementable sections"
	MetricMappedImplementable   = "Mapped implementable sections"
	MetricUnmappedImplementable = "Unmapped implementable sections"
	MetricEPCoverage            = "EP-section coverage"
	MetricPRFiles               = "PR files"
	MetricDirectFiles           = "Direct files"
	MetricAssociatedFiles       = "Associated files"
	MetricUnmappedFiles         = "Unmapped files"
	MetricPRCoverage            = "PR-file coverage"
)

// Metrics lists the fixed metrics in canonical order.
var Metrics = []string{
	MetricEPSections, MetricImplementable, MetricMappedImplementable, MetricUnmappedImplementable,
	MetricEPCoverage, MetricPRFiles, MetricDirectFiles, MetricAssociatedFiles, MetricUnmappedFiles,
	MetricPRCoverage,
}

// CategoryMetric is the Global Statistics metric that counts the PR files
// of category c, for example "source files".
func CategoryMetric(c lang.Category) string {
	return string(c) + " files"
}

// MetricCategory is the inverse of CategoryMetric: it returns the category
// counted by metric, or false when metric is not a per-category metric.
func MetricCategory(metric string) (lang.Category, bool) {
	name, ok := strings.CutSuffix(metric, " files")
	if !ok {
		return "", false
	}
	return lang.ParseCategory(name)
}
