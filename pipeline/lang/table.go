package lang

// Language is one entry of the language table. The conventions below are
// what Classify uses to tell a language's test files and generated files
// from its source files.
type Language struct {
	// Name follows cloc's language names ("Go", "C++", "C#"), so that LoC
	// figures and file classes share one vocabulary.
	Name string
	// Extensions are lower-case, with the dot.
	Extensions []string
	// TestNames are base-name globs of test files ("*_test.go").
	TestNames []string
	// TestDirs are directory-name globs; a file of this language below one
	// of them is a test file ("tests", "*.Tests").
	TestDirs []string
	// TestPaths are slash-separated directory sequences that mark tests
	// when they occur in the path ("src/test").
	TestPaths []string
	// GeneratedNames are base-name globs of generated sources ("*.pb.go").
	GeneratedNames []string
	// BuildNames are base-name globs of build, manifest and lock files
	// that belong to this language's toolchain.
	BuildNames []string
	// TestConfig names the files, besides test files, that change how this
	// language's tests are collected or run: base-name globs, or slash
	// paths ending in one (".cargo/config.toml"). "name[section]" means
	// only that section of the file: an INI section ("setup.cfg[tool:pytest]"),
	// a TOML table and its subtables ("pyproject.toml[tool.pytest]") or
	// go.mod's replace directives ("go.mod[replace]"). The verifier resets
	// them to the base commit before every graded run (issue 11).
	TestConfig []string
	// NewTest says where a new test file goes and how it is named, for
	// the augment stage's prompts (issue 34 §4); empty for a language
	// whose new test files augment cannot place (langsupport.Gaps says
	// why).
	NewTest string
}

// Table lists the languages lolbench knows. The first eight have
// tree-sitter scopes (pipeline/syntax); the rest are recognised as source
// so that file categories and the source share are right.
var Table = []*Language{
	{
		Name:           "Go",
		Extensions:     []string{".go"},
		TestNames:      []string{"*_test.go"},
		GeneratedNames: []string{"*.pb.go", "*.pb.gw.go", "*_generated.go", "zz_generated*.go", "*_string.go", "bindata.go", "*.gen.go"},
		BuildNames:     []string{"go.mod", "go.work"},
		// A replace directive can swap a test dependency (testify) for a
		// local copy whose assertions never fail.
		TestConfig: []string{"go.work", "go.work.sum", "go.mod[replace]"},
		NewTest:    "A Go test goes into a new file whose name ends in _test.go, in the folder of the package it tests, declaring that package (or the package name with _test for a black-box test).",
	},
	{
		Name:           "Python",
		Extensions:     []string{".py", ".pyi", ".pyx"},
		TestNames:      []string{"test_*.py", "*_test.py", "tests.py", "conftest.py"},
		TestDirs:       []string{"test", "tests"},
		GeneratedNames: []string{"*_pb2.py", "*_pb2_grpc.py", "*_pb2.pyi"},
		BuildNames:     []string{"setup.py", "setup.cfg", "pyproject.toml", "requirements*.txt", "tox.ini", "noxfile.py", "Pipfile", "MANIFEST.in"},
		// pytest reads its options (addopts can load plugins) from these;
		// the interpreter imports sitecustomize, usercustomize and runs .pth
		// files from any folder on its path at start-up.
		TestConfig: []string{"conftest.py", "pytest.ini", ".pytest.ini", "tox.ini[pytest]", "setup.cfg[tool:pytest]", "pyproject.toml[tool.pytest]",
			"sitecustomize.py", "usercustomize.py", "*.pth"},
		NewTest: "A Python test goes into a new file named test_<topic>.py in a folder the project's tests already use, collected by pytest.",
	},
	{
		Name:           "Java",
		Extensions:     []string{".java"},
		TestNames:      []string{"*Test.java", "*Tests.java", "*IT.java", "*TestCase.java"},
		TestPaths:      []string{"src/test", "src/testFixtures", "src/integrationTest"},
		GeneratedNames: []string{"*Grpc.java", "*OuterClass.java"},
		BuildNames:     []string{"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "gradle.properties", "gradlew", "gradlew.bat", "mvnw", "build.xml"},
		// JUnit Platform reads junit-platform.properties (extension
		// autodetection, a listener's parameters) and loads every
		// listener, launcher interceptor, engine and (autodetected)
		// extension named under META-INF/services, in main resources as
		// in test ones: one of them can turn failures into passes. A
		// POM's test plugins and their properties decide what Surefire
		// runs and how (an argLine agent, testFailureIgnore, includes that
		// miss the canary): pom.xml[test-plugins], reset whole when they
		// changed (guard.resetPOM). .mvn/ holds Maven's own options and
		// core extensions, which run inside Maven. The wrappers are what
		// a test command runs: a replaced gradlew could write its own
		// reports.
		TestConfig: []string{"junit-platform.properties", "META-INF/services/org.junit.*", "pom.xml[test-plugins]",
			".mvn/*", ".mvn/*/*", "gradlew", "mvnw", "gradle/wrapper/*"},
		NewTest: "A Java test goes into a new file <Name>Test.java holding one top-level class of that name, in the test source folder and the package of the class it tests.",
	},
	{
		Name:       "Rust",
		Extensions: []string{".rs"},
		TestNames:  []string{"*_test.rs", "tests.rs"},
		TestDirs:   []string{"tests"},
		BuildNames: []string{"Cargo.toml", "build.rs", "rust-toolchain", "rust-toolchain.toml", "rustfmt.toml", "clippy.toml"},
		// Cargo's configuration sets a target runner (a wrapper that runs
		// every test binary and can print its own results), rustflags and
		// sources; rust-toolchain picks the compiler. A build script runs
		// before the tests as the test user and can plant anything. A
		// manifest's [lib] and [[test]] tables decide which targets run and
		// how (harness = false makes a target's own main print libtest's
		// lines, path = points a test at other code); [patch] and [replace]
		// swap a dependency for a local copy; [profile] can turn off
		// overflow checks and debug assertions the tests rely on;
		// dev-dependencies (also per target, [target.'cfg(..)'.dev-dependencies])
		// are test code from outside the repository, which a path swaps
		// for a copy whose assertions never fail.
		TestConfig: []string{".cargo/config.toml", ".cargo/config", "rust-toolchain", "rust-toolchain.toml", "build.rs",
			"Cargo.toml[lib]", "Cargo.toml[test]", "Cargo.toml[patch]", "Cargo.toml[replace]", "Cargo.toml[profile]", "Cargo.toml[dev-dependencies]", "Cargo.toml[target]"},
		NewTest: "A Rust test goes into a new integration test file tests/<topic>.rs of the package it tests, with #[test] functions that use the crate's public API only.",
	},
	{
		Name:           "C",
		Extensions:     []string{".c"},
		TestNames:      []string{"test_*.c", "*_test.c", "*_tests.c"},
		TestDirs:       []string{"test", "tests", "testsuite"},
		GeneratedNames: []string{"*.pb-c.c", "*.tab.c", "*.yy.c"},
		BuildNames:     []string{"Makefile", "makefile", "GNUmakefile", "*.mk", "Makefile.*", "configure", "configure.ac", "configure.in", "*.m4", "CMakeLists.txt", "*.cmake", "meson.build", "meson_options.txt", "*.vcxproj", "*.vcxproj.filters"},
		// CMake and CTest (cmakeTestConfig), shared with C++.
		TestConfig: cmakeTestConfig,
	},
	{
		// cloc counts .h files as "C/C++ Header"; scopes parse them as C++.
		Name:           "C/C++ Header",
		Extensions:     []string{".h", ".hh", ".hpp", ".hxx", ".h++", ".inl"},
		TestDirs:       []string{"test", "tests"},
		GeneratedNames: []string{"*.pb.h", "*.pb-c.h", "*.tab.h"},
	},
	{
		Name:           "C++",
		Extensions:     []string{".cc", ".cpp", ".cxx", ".c++", ".cp", ".ipp", ".tcc"},
		TestNames:      []string{"*_test.cc", "*_test.cpp", "*_unittest.cc", "*_unittest.cpp", "test_*.cc", "test_*.cpp", "*_tests.cc", "*_tests.cpp"},
		TestDirs:       []string{"test", "tests", "unittests"},
		GeneratedNames: []string{"*.pb.cc", "*.grpc.pb.cc", "moc_*.cpp"},
		BuildNames:     []string{"BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "*.bzl", "BUILD.gn", "*.gni", "conanfile.txt", "conanfile.py", "vcpkg.json"},
		TestConfig:     cmakeTestConfig,
	},
	{
		Name:           "TypeScript",
		Extensions:     []string{".ts", ".tsx", ".mts", ".cts"},
		TestNames:      []string{"*.test.ts", "*.spec.ts", "*.test.tsx", "*.spec.tsx", "*.test.mts", "*.spec.mts"},
		TestDirs:       []string{"__tests__", "test", "tests", "__mocks__"},
		GeneratedNames: []string{"*.d.ts", "*.generated.ts"},
		BuildNames:     []string{"tsconfig.json", "tsconfig.*.json"},
		// ts-node, which lolbench-node-test runs TypeScript with, preloads
		// the modules a tsconfig's "ts-node" options require (one could
		// patch node:test), and "extends" reaches another file's:
		// tsconfig*.json[ts-node], reset whole when they changed
		// (guard.resetNodeConfig).
		TestConfig: []string{"jest.config.*", "jest.setup.*", "vitest.config.*", "vitest.setup.*", "vitest.workspace.*", ".mocharc*", "karma.conf.*",
			"tsconfig*.json[ts-node]"},
		NewTest: "A TypeScript test goes into a new file named <topic>.test.ts in a folder the project's tests already use, written with the test framework and assertion module the existing tests import.",
	},
	{
		Name:           "JavaScript",
		Extensions:     []string{".js", ".jsx", ".mjs", ".cjs"},
		TestNames:      []string{"*.test.js", "*.spec.js", "*.test.jsx", "*.spec.jsx", "*.test.mjs", "*.spec.mjs"},
		TestDirs:       []string{"__tests__", "test", "tests", "__mocks__"},
		GeneratedNames: []string{"*.min.js", "*.bundle.js", "*.generated.js"},
		BuildNames:     []string{"package.json", "webpack.config.*", "rollup.config.*", "vite.config.*", "babel.config.*", ".babelrc", "jest.config.*", ".eslintrc*", ".npmrc", "Gruntfile.js", "gulpfile.js"},
		// npm test runs package.json's scripts (a --require preload, a
		// script that prints passes) and test runners read their options
		// from its keys: package.json[test-config] is reset whole when
		// they changed (guard.resetNodeConfig). An .npmrc's node-options
		// preloads modules into every node that npm starts.
		TestConfig: []string{"jest.config.*", "jest.setup.*", "vitest.config.*", "vitest.setup.*", "vitest.workspace.*", ".mocharc*", "karma.conf.*", "babel.config.*", ".babelrc",
			"package.json[test-config]", ".npmrc"},
		NewTest: "A JavaScript test goes into a new file named <topic>.test.js in a folder the project's tests already use, written with the test framework and assertion module the existing tests import.",
	},
	{
		Name:           "C#",
		Extensions:     []string{".cs"},
		TestNames:      []string{"*Tests.cs", "*Test.cs"},
		TestDirs:       []string{"*.Tests", "*.Test", "*.UnitTests", "*.IntegrationTests", "*.FunctionalTests", "tests", "test"},
		GeneratedNames: []string{"*.g.cs", "*.g.i.cs", "*.Designer.cs", "*.generated.cs", "AssemblyInfo.cs"},
		BuildNames:     []string{"*.csproj", "*.sln", "*.props", "*.targets", "global.json", "nuget.config", "NuGet.Config", "packages.config"},
	},
	{Name: "Kotlin", Extensions: []string{".kt", ".kts"}, TestNames: []string{"*Test.kt", "*Tests.kt"}, TestPaths: []string{"src/test"}},
	{Name: "Scala", Extensions: []string{".scala"}, TestNames: []string{"*Test.scala", "*Spec.scala", "*Suite.scala"}, TestPaths: []string{"src/test"}, BuildNames: []string{"build.sbt", "*.sbt"}},
	{Name: "Ruby", Extensions: []string{".rb"}, TestNames: []string{"*_test.rb", "*_spec.rb", "test_*.rb"}, TestDirs: []string{"test", "spec"}, BuildNames: []string{"Gemfile", "Rakefile", "*.gemspec"}},
	{Name: "PHP", Extensions: []string{".php"}, TestNames: []string{"*Test.php"}, TestDirs: []string{"tests", "test"}, BuildNames: []string{"composer.json"}},
	{Name: "Swift", Extensions: []string{".swift"}, TestNames: []string{"*Tests.swift", "*Test.swift"}, TestDirs: []string{"Tests"}, BuildNames: []string{"Package.swift"}},
	{Name: "Objective-C", Extensions: []string{".m", ".mm"}, TestNames: []string{"*Tests.m", "*Test.m"}},
	{Name: "Assembly", Extensions: []string{".s", ".asm"}},
	{Name: "Zig", Extensions: []string{".zig"}, BuildNames: []string{"build.zig", "build.zig.zon"}},
	{Name: "Lua", Extensions: []string{".lua"}, TestNames: []string{"*_spec.lua", "test_*.lua"}},
	{Name: "Perl", Extensions: []string{".pl", ".pm", ".t"}, TestNames: []string{"*.t"}, TestDirs: []string{"t"}},
	{Name: "Bourne Shell", Extensions: []string{".sh"}, TestNames: []string{"test_*.sh", "*_test.sh"}, TestDirs: []string{"test", "tests"}},
	{Name: "Bourne Again Shell", Extensions: []string{".bash"}, TestNames: []string{"*.bats"}, TestDirs: []string{"test", "tests"}},
	{Name: "Haskell", Extensions: []string{".hs"}, TestDirs: []string{"test", "tests"}, BuildNames: []string{"*.cabal", "stack.yaml"}},
	{Name: "OCaml", Extensions: []string{".ml", ".mli"}, TestDirs: []string{"test", "tests"}, BuildNames: []string{"dune", "dune-project", "*.opam"}},
	{Name: "Elixir", Extensions: []string{".ex", ".exs"}, TestNames: []string{"*_test.exs"}, TestDirs: []string{"test"}, BuildNames: []string{"mix.exs"}},
	{Name: "Erlang", Extensions: []string{".erl", ".hrl"}, TestNames: []string{"*_SUITE.erl", "*_tests.erl"}, BuildNames: []string{"rebar.config"}},
	{Name: "Dart", Extensions: []string{".dart"}, TestNames: []string{"*_test.dart"}, TestDirs: []string{"test"}, BuildNames: []string{"pubspec.yaml"}},
}

// cmakeTestConfig are the files that change how a CMake project's tests
// (C and C++) are declared and run. The CMakeLists.txt of a test folder
// declares the tests (add_test, gtest_discover_tests): a test program
// swapped for true passes. CTest reads CTestCustom.* (tests to ignore,
// commands before and after), and a CTestTestfile.cmake names every test
// and its command. A project's own GoogleTest.cmake,
// GoogleTestAddTests.cmake, FindGTest.cmake or FindCMocka.cmake on
// CMAKE_MODULE_PATH shadows CMake's and Debian's: a forged
// gtest_discover_tests, or a GTest target whose main forges passes. A test
// main outside the test folders (gtest_main.cc, test_main.cpp) installs
// GoogleTest's listeners and decides the exit status.
var cmakeTestConfig = []string{"test/CMakeLists.txt", "tests/CMakeLists.txt", "testsuite/CMakeLists.txt", "test/*/CMakeLists.txt", "tests/*/CMakeLists.txt",
	"CTestTestfile.cmake", "CTestCustom.cmake", "CTestCustom.cmake.in", "CTestCustom.ctest", "CTestCustom.ctest.in", "CTestConfig.cmake",
	"GoogleTest.cmake", "GoogleTestAddTests.cmake", "FindGTest.cmake", "GTestConfig.cmake", "FindCMocka.cmake", "cmocka-config.cmake",
	"gtest_main.cc", "gtest_main.cpp", "test_main.cc", "test_main.cpp", "test_main.c"}

// Conventions shared by every language.
var (
	// vendorDirs hold third-party code copied into the repository.
	vendorDirs = []string{"vendor", "vendored", "third_party", "third-party", "thirdparty", "3rdparty", "node_modules", "bower_components", "_vendor"}
	// testDataDirs hold test inputs and expected outputs; anything below
	// them is test data, whatever its extension.
	testDataDirs = []string{"testdata", "test_data", "test-data", "fixtures", "__fixtures__", "__snapshots__", "test_resources", "testfiles"}
	// testDataPaths mark resources of a test tree (Maven/Gradle layout).
	testDataPaths = []string{"src/test/resources", "src/testFixtures/resources"}
	// lockNames are generated by package managers.
	lockNames = []string{"go.sum", "Cargo.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "composer.lock", "Gemfile.lock", "packages.lock.json", "gradle.lockfile", "flake.lock", "MODULE.bazel.lock", "mix.lock", "pubspec.lock"}
	// generatedNames of no particular language.
	generatedNames = []string{"*.generated.*", "*_generated.*", "*.pb.*", "*.min.css"}
	// buildNames of no particular language: CI, containers, generic tools.
	buildNames = []string{"Dockerfile", "Dockerfile.*", "*.dockerfile", ".dockerignore", "docker-compose*.yml", "docker-compose*.yaml", "Jenkinsfile", ".travis.yml", ".gitlab-ci.yml", "azure-pipelines.yml", "appveyor.yml", ".gitignore", ".gitattributes", ".editorconfig", "codecov.yml", ".pre-commit-config.yaml", "Makefile", "CMakeLists.txt", "justfile", "Taskfile.yml", "Vagrantfile", ".golangci.yml", ".golangci.yaml", "renovate.json", ".clang-format", ".clang-tidy"}
	// buildDirs hold CI and build machinery.
	buildDirs = []string{".github", ".circleci", ".buildkite", ".ci", ".gitlab", ".azure-pipelines", ".devcontainer"}
	// docExtensions are documentation formats.
	docExtensions = []string{".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".txt", ".tex", ".texi", ".pod", ".1", ".3", ".5", ".8", ".man", ".rdoc", ".org"}
	// docNames are documentation files without a telling extension.
	docNames = []string{"README*", "CHANGELOG*", "CHANGES*", "HISTORY*", "NEWS*", "AUTHORS*", "CONTRIBUTORS*", "CONTRIBUTING*", "LICENSE*", "LICENCE*", "COPYING*", "NOTICE*", "MAINTAINERS*", "CODEOWNERS", "OWNERS", "OWNERS_ALIASES", "SECURITY*", "CODE_OF_CONDUCT*"}
	// docDirs hold documentation; only non-source files below them are
	// documentation (a docs/conf.py is still Python source).
	docDirs = []string{"doc", "docs", "Doc", "documentation", "Documentation", "man", "NEWS.d", "changelog.d", "changes", "website", "site"}
)
