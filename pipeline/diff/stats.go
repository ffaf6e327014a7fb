package diff

import "github.com/lolbench/lolbench/pipeline/lang"

// CategoryStats counts the files of one category and their changed lines.
type CategoryStats struct {
	Files, Inserted, Deleted int
}

// Stats summarises a change: the size criteria of collection and the share
// of changed lines that are source code (paper, section 3.2).
type Stats struct {
	Files, Inserted, Deleted int
	// Categories has an entry for every category of lang.Categories,
	// zero counts included, so that every report has the same rows.
	Categories map[lang.Category]*CategoryStats
	// SourceShare is the fraction of changed lines (inserted plus deleted)
	// in source files; 0 when no line changed. Binary files change no
	// lines.
	SourceShare float64
}

// Stats counts the change's files and lines, in total and per category.
func (c *Change) Stats() Stats {
	s := Stats{Categories: make(map[lang.Category]*CategoryStats, len(lang.Categories))}
	for _, cat := range lang.Categories {
		s.Categories[cat] = &CategoryStats{}
	}
	for i := range c.Files {
		f := &c.Files[i]
		s.Files++
		s.Inserted += f.Inserted
		s.Deleted += f.Deleted
		cs := s.Categories[f.Category]
		if cs == nil { // a category outside the vocabulary: count it anyway
			cs = &CategoryStats{}
			s.Categories[f.Category] = cs
		}
		cs.Files++
		cs.Inserted += f.Inserted
		cs.Deleted += f.Deleted
	}
	if total := s.Inserted + s.Deleted; total > 0 {
		src := s.Categories[lang.Source]
		s.SourceShare = float64(src.Inserted+src.Deleted) / float64(total)
	}
	return s
}
