package guard

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strings"
)

// POMTestSection is the section name of a pom.xml's test configuration in
// the language table ("pom.xml[test-plugins]", issue 22).
const POMTestSection = "test-plugins"

// pomTestPlugins are the plugins that run tests or decide how: a changed
// configuration of theirs (an argLine that loads an agent,
// testFailureIgnore, skipTests, includes that miss the canary, a
// systemPropertyVariables entry that enables extension autodetection)
// changes what a run reports.
var pomTestPlugins = map[string]bool{"maven-surefire-plugin": true, "maven-failsafe-plugin": true, "surefire": true}

// pomTestProperty reports whether a POM property is read by those plugins
// or by the JVM they fork (Surefire's user properties, and argLine).
func pomTestProperty(name string) bool {
	for _, p := range []string{"surefire.", "failsafe.", "maven.test.", "junit.", "jacoco."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	switch name {
	case "argLine", "skipTests", "skipITs", "test", "it.test", "testFailureIgnore", "failIfNoTests":
		return true
	}
	return false
}

// pomTestBuild are the build elements that move or add test sources and
// resources, or load code into Maven itself (build extensions).
var pomTestBuild = map[string]bool{"testSourceDirectory": true, "testOutputDirectory": true, "testResources": true, "extensions": true}

// resetPOM compares the test configuration of two POMs: every test plugin
// (anywhere: build, pluginManagement, profiles), every test property and
// the test build elements. When cur's differs from base's, the whole base
// POM comes back (whole is set): XML offers no safe way to splice part of
// it, and a solution that touches its tests' configuration loses its
// other POM changes too. A POM that does not parse comes back whole.
func resetPOM(cur, base []byte) ([]byte, bool) {
	c, err := pomTestConfig(cur)
	if err != nil {
		return base, true
	}
	b, err := pomTestConfig(base)
	if err != nil {
		// A base POM that does not parse: nothing to compare with.
		b = nil
	}
	if strings.Join(c, "\n") == strings.Join(b, "\n") {
		return cur, false
	}
	return base, true
}

// maxPOMDepth bounds the nesting a POM may have; real ones stay below 15.
const maxPOMDepth = 64

var errDepth = errors.New("pom.xml: elements nested too deep")

// pomTestConfig returns the test configuration of a POM as canonical
// strings, one per element found (its path and its content with blanks
// and comments left out), sorted.
func pomTestConfig(data []byte) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.Entity = map[string]string{} // never expand a DTD's entities
	var out []string
	var path []string
	// capture holds the canonical text of the element being captured, and
	// the depth it started at; -1 when none is.
	var capture strings.Builder
	start := -1
	isPlugin := false
	var pluginID string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			path = append(path, t.Name.Local)
			if len(path) > maxPOMDepth {
				return nil, errDepth
			}
			if start < 0 && wantPOMElement(path) {
				start, isPlugin, pluginID = len(path), t.Name.Local == "plugin", ""
				capture.Reset()
			}
			if start >= 0 {
				capture.WriteString("<" + t.Name.Local)
				attrs := make([]string, 0, len(t.Attr))
				for _, a := range t.Attr {
					attrs = append(attrs, a.Name.Local+"="+a.Value)
				}
				sort.Strings(attrs)
				for _, a := range attrs {
					capture.WriteString(" " + a)
				}
				capture.WriteString(">")
			}
		case xml.CharData:
			if start >= 0 {
				text := strings.TrimSpace(string(t))
				capture.WriteString(text)
				if isPlugin && len(path) == start+1 && path[len(path)-1] == "artifactId" {
					pluginID = text
				}
			}
		case xml.EndElement:
			if start >= 0 {
				capture.WriteString("</" + t.Name.Local + ">")
				if len(path) == start {
					if !isPlugin || pomTestPlugins[pluginID] {
						out = append(out, strings.Join(path, "/")+" "+capture.String())
					}
					start = -1
				}
			}
			path = path[:len(path)-1]
		}
	}
	sort.Strings(out)
	return out, nil
}

// wantPOMElement says whether the element at path is test configuration:
// a plugin (kept when its artifactId is a test plugin), a test property, a
// test build element.
func wantPOMElement(path []string) bool {
	n := len(path)
	name := path[n-1]
	switch {
	case name == "plugin" && n >= 2 && path[n-2] == "plugins":
		return true
	case n >= 2 && path[n-2] == "properties" && pomTestProperty(name):
		return true
	case n >= 2 && path[n-2] == "build" && pomTestBuild[name]:
		return true
	}
	return false
}
