package guard

import "testing"

func TestResetSections(t *testing.T) {
	pyBase := "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n\n[tool.black]\nline-length = 99\n"
	tests := []struct {
		name, file, cur, base string
		sections              []string
		want                  string
		whole                 bool
	}{
		{"toml: a plugin added to addopts", "pyproject.toml",
			"[project]\nname = \"x\"\nversion = \"2\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\naddopts = \"-p evil\"\n\n[tool.black]\nline-length = 99\n",
			pyBase, []string{"tool.pytest"},
			"[project]\nname = \"x\"\nversion = \"2\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n\n[tool.black]\nline-length = 99\n", false},
		{"toml: a subtable and a quoted header", "pyproject.toml",
			"[project]\nname = \"x\"\n[ tool . \"pytest\" . ini_options ]\naddopts = \"-p evil\"\n[tool.pytest.extra]\nx = 1\n",
			pyBase, []string{"tool.pytest"},
			"[project]\nname = \"x\"\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n\n", false},
		{"toml: untouched", "pyproject.toml", pyBase, pyBase, []string{"tool.pytest"}, pyBase, false},
		// Dotted keys reach the table without a header of it: the whole
		// file goes back.
		{"toml: dotted keys", "pyproject.toml",
			"[project]\nname = \"x\"\n\n[tool]\npytest.ini_options.addopts = \"-p evil\"\n",
			pyBase, []string{"tool.pytest"}, pyBase, true},
		{"toml: not TOML", "pyproject.toml", "[project\n", pyBase, []string{"tool.pytest"}, pyBase, true},
		{"toml: a new file's section goes", "sub/pyproject.toml",
			"[project]\nname = \"y\"\n[tool.pytest.ini_options]\naddopts = \"-p evil\"\n", "", []string{"tool.pytest"},
			"[project]\nname = \"y\"\n", false},
		{"ini: setup.cfg", "setup.cfg",
			"[metadata]\nname = x\n\n[tool:pytest]\naddopts = -p evil\n\n[flake8]\nmax-line-length = 99\n",
			"[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n\n[flake8]\nmax-line-length = 88\n", []string{"tool:pytest"},
			"[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n\n[flake8]\nmax-line-length = 99\n", false},
		{"ini: a section added where base has none", "tox.ini",
			"[tox]\nenvlist = py3\n[pytest]\naddopts = -p evil\n", "[tox]\nenvlist = py3\n", []string{"pytest"},
			"[tox]\nenvlist = py3\n", false},
		{"ini: a section deleted", "tox.ini",
			"[tox]\nenvlist = py311\n", "[tox]\nenvlist = py3\n[pytest]\nmarkers = slow\n", []string{"pytest"},
			"[tox]\nenvlist = py311\n[pytest]\nmarkers = slow\n", false},
		{"go.mod: a replace swaps a test library", "go.mod",
			"module ex.com/m\n\ngo 1.21\n\nrequire github.com/stretchr/testify v1.9.0\n\nreplace github.com/stretchr/testify => ./fake\n",
			"module ex.com/m\n\ngo 1.21\n\nrequire github.com/stretchr/testify v1.9.0\n", []string{"replace"},
			"module ex.com/m\n\ngo 1.21\n\nrequire github.com/stretchr/testify v1.9.0\n", false},
		{"go.mod: the base's replace is kept, other changes too", "go.mod",
			"module ex.com/m\n\ngo 1.22\n\nreplace ex.com/a => ./a\n",
			"module ex.com/m\n\ngo 1.21\n\nreplace ex.com/a => ./a\n", []string{"replace"},
			"module ex.com/m\n\ngo 1.22\n\nreplace ex.com/a => ./a\n", false},
		{"go.mod: does not parse", "go.mod", "module\n(", "module ex.com/m\n", []string{"replace"}, "module ex.com/m\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base []byte
			if tt.base != "" {
				base = []byte(tt.base)
			}
			got, whole := resetSections(tt.file, []byte(tt.cur), base, tt.sections)
			if string(got) != tt.want || whole != tt.whole {
				t.Fatalf("got (whole %v)\n%q\nwant (whole %v)\n%q", whole, got, tt.whole, tt.want)
			}
		})
	}
}
