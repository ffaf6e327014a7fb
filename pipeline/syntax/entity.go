package syntax

import (
	"cmp"
	"slices"
)

// Entity is one named class-like or function-like definition in a source
// file. Class entities have an empty Function; function entities have a
// non-empty Function and the class they belong to in Class.
type Entity struct {
	// Kind says what the definition is: for classes "class", "struct",
	// "union", "interface", "enum", "record", "trait" or "impl"; for
	// functions "function", "method", "constructor", "destructor",
	// "property", "indexer", "operator" or "event".
	Kind string `json:"kind"`
	// Class is the qualified class, dotted from the outside in
	// ("Outer.Inner"). For a class entity it is the class itself.
	Class string `json:"class"`
	// Function is the function name, dotted for functions nested in
	// functions ("outer.inner"); empty for class entities.
	Function string `json:"function"`
	// Start and End are the 1-based first and last lines, decorators,
	// attributes and export/template wrappers included.
	Start int `json:"start"`
	End   int `json:"end"`
	// Exported reports whether the entity is public by its language's
	// convention (see the package documentation).
	Exported bool `json:"exported"`
	// Signature is the declaration up to its body, whitespace collapsed.
	Signature string `json:"signature"`
}

// IsFunction reports whether e is a function-like entity.
func (e Entity) IsFunction() bool { return e.Function != "" }

// Name is the qualified name: "Class.Function", "Class" or "Function".
func (e Entity) Name() string {
	switch {
	case e.Class == "":
		return e.Function
	case e.Function == "":
		return e.Class
	}
	return e.Class + "." + e.Function
}

// key identifies an entity by qualified name, the unit of "new" (overloads
// share a key).
type key struct{ class, function string }

func (e Entity) key() key { return key{e.Class, e.Function} }

// scopeKey is the scope of the lines an entity encloses: a class's own
// lines are its class-body scope (class, ""), like the class's key; an
// impl block's are those of the type it implements.
func (e Entity) scopeKey() key { return e.key() }

// Enclosing returns the scope of a 1-based line: the class and function of
// the innermost function entity whose lines contain it; else, for a line
// in a class body outside every function (a field, an enum constant), the
// innermost class and an empty function; else two empty strings
// (file-level, which rule 27 exempts). When two entities share the line
// (one ends where the next starts), the later one wins; of identical
// spans, the last in the slice.
func Enclosing(entities []Entity, line int) (class, function string) {
	if i := innermost(entities, line, Entity.IsFunction); i >= 0 {
		return entities[i].Class, entities[i].Function
	}
	if i := innermost(entities, line, Entity.isClass); i >= 0 {
		return entities[i].Class, ""
	}
	return "", ""
}

func (e Entity) isClass() bool { return !e.IsFunction() }

// innermost is the index of the innermost entity that is and contains
// line, or -1.
func innermost(entities []Entity, line int, is func(Entity) bool) int {
	best := -1
	for i, e := range entities {
		if !is(e) || line < e.Start || line > e.End {
			continue
		}
		if best < 0 || !innerThan(entities[best], e) {
			best = i
		}
	}
	return best
}

// innerThan orders candidates that contain the same line: a later start is
// more inner, and for equal starts a shorter span.
func innerThan(a, b Entity) bool {
	if a.Start != b.Start {
		return a.Start > b.Start
	}
	return a.End < b.End
}

// enclosingAll resolves many ascending lines in one sweep; it returns, per
// line, the index of the entity Enclosing would take (the innermost
// function, else the innermost class) or -1. The sweeps keep the open
// entities on a stack so that a file with many entities and many changed
// lines costs O(E log E + L).
func enclosingAll(entities []Entity, lines []int) []int {
	out := sweep(entities, lines, Entity.IsFunction)
	classes := sweep(entities, lines, Entity.isClass)
	for i := range out {
		if out[i] < 0 {
			out[i] = classes[i]
		}
	}
	return out
}

// sweep is enclosingAll over the entities that are.
func sweep(entities []Entity, lines []int, is func(Entity) bool) []int {
	order := make([]int, 0, len(entities))
	for i, e := range entities {
		if is(e) && e.Start <= e.End {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ea, eb := entities[a], entities[b]
		if c := cmp.Compare(ea.Start, eb.Start); c != 0 {
			return c
		}
		return cmp.Compare(eb.End, ea.End)
	})
	out := make([]int, len(lines))
	var stack []int
	next := 0
	for li, line := range lines {
		for next < len(order) && entities[order[next]].Start <= line {
			stack = append(stack, order[next])
			next++
		}
		// Pop the entities that ended before this line. What stays on top
		// starts no earlier than anything below it (push order is start
		// order) and, for equal starts, ends no later, so it is the
		// innermost entity containing the line. An ended entity below an
		// open one is harmless: it cannot surface before the open one ends.
		for len(stack) > 0 && entities[stack[len(stack)-1]].End < line {
			stack = stack[:len(stack)-1]
		}
		out[li] = -1
		if len(stack) > 0 {
			out[li] = stack[len(stack)-1]
		}
	}
	return out
}
