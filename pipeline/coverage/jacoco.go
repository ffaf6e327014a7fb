package coverage

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/testid"
)

// jacocoAdapter reads JaCoCo XML reports. The recipe gives the command
// that runs tests with the JaCoCo agent and writes the report
// (recipe.Coverage); it runs once per suite with that suite's tests, so
// coverage is known per suite, not per test.
type jacocoAdapter struct{}

// Name implements Adapter.
func (jacocoAdapter) Name() string { return "jacoco" }

// Tool implements Adapter.
func (jacocoAdapter) Tool() string { return "JaCoCo XML report, one run per suite" }

// jacocoTests turns junit test ids ("com.x.FooTest::testBar") into Maven
// Surefire's -Dtest items ("com.x.FooTest#testBar"), one shell word.
func jacocoTests(tests []string) string {
	var items []string
	for _, t := range tests {
		cls, name, ok := strings.Cut(t, "::")
		if !ok {
			items = append(items, t)
			continue
		}
		items = append(items, cls+"#"+testid.Bare(name))
	}
	sort.Strings(items)
	out := items[:0]
	for i, it := range items {
		if i == 0 || it != items[i-1] {
			out = append(out, it)
		}
	}
	return testcmd.Quote(strings.Join(out, ","))
}

// Script implements Adapter.
func (jacocoAdapter) Script(p *Plan) (string, error) {
	c := p.Recipe.Coverage
	if c.Command == "" || c.Report == "" {
		return "", errors.New("jacoco coverage: the recipe's coverage section needs command and report")
	}
	var b strings.Builder
	for i, s := range p.Suites {
		cmd := strings.ReplaceAll(c.Command, recipe.Placeholder, jacocoTests(s.Tests))
		fmt.Fprintf(&b, "rm -f %s\n", testcmd.Quote(c.Report))
		fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n\ttimeout -k 10 %d sh -c %s >\"$cov/s%d.log\" 2>&1 </dev/null\n", p.Recipe.Limits.TimeoutSec, testcmd.Quote(cmd), i)
		fmt.Fprintf(&b, "else\n\tsh -c %s >\"$cov/s%d.log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(cmd), i)
		fmt.Fprintf(&b, "echo $? >\"$cov/s%d.exit\"\n", i)
		fmt.Fprintf(&b, "[ -f %s ] && cp %s \"$cov/s%d.xml\"\n", testcmd.Quote(c.Report), testcmd.Quote(c.Report), i)
	}
	return b.String(), nil
}

// jacocoReport is the part of a JaCoCo XML report the adapter reads.
type jacocoReport struct {
	Packages []struct {
		Name  string `xml:"name,attr"`
		Files []struct {
			Name  string `xml:"name,attr"`
			Lines []struct {
				Nr int `xml:"nr,attr"`
				CI int `xml:"ci,attr"`
			} `xml:"line"`
		} `xml:"sourcefile"`
	} `xml:"package"`
}

// maxJaCoCoBytes caps a report.
const maxJaCoCoBytes = 256 << 20

// readJaCoCo returns the covered lines (ci > 0) of the target's files.
// A report's source file is "package/Name.java"; it is the target file
// whose path ends with that.
func readJaCoCo(r io.Reader, p *Plan) (Lines, error) {
	dec := xml.NewDecoder(io.LimitReader(r, maxJaCoCoBytes))
	// JaCoCo reports declare a DTD; the decoder must not fetch anything.
	dec.Strict = true
	dec.Entity = map[string]string{}
	var rep jacocoReport
	if err := dec.Decode(&rep); err != nil {
		return nil, err
	}
	out := Lines{}
	for _, pk := range rep.Packages {
		for _, f := range pk.Files {
			rel := path.Join(pk.Name, f.Name)
			var match string
			for _, t := range p.Target.Files {
				if t.Path == rel || strings.HasSuffix(t.Path, "/"+rel) {
					match = t.Path
					break
				}
			}
			if match == "" {
				continue
			}
			for _, l := range f.Lines {
				if l.CI > 0 && l.Nr > 0 {
					out[match] = append(out[match], l.Nr)
				}
			}
		}
	}
	return out.Normalize(), nil
}

// Read implements Adapter.
func (jacocoAdapter) Read(dir string, p *Plan) (*Raw, error) {
	raw := &Raw{PerSuite: map[string]Lines{}}
	for i, s := range p.Suites {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("s%d.xml", i)))
		if err != nil {
			raw.Notes = append(raw.Notes, fmt.Sprintf("suite %s wrote no JaCoCo report (see s%d.log)", s.Name, i))
			raw.PerSuite[s.Name] = Lines{}
			continue
		}
		l, err := readJaCoCo(f, p)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("s%d.xml: %w", i, err)
		}
		raw.PerSuite[s.Name] = l
	}
	return raw, nil
}

// Select implements Adapter.
func (jacocoAdapter) Select(*Plan, []string) ([]string, bool) { return nil, false }

// BuildCheck implements Adapter.
func (jacocoAdapter) BuildCheck([]string) string { return "" }
