package results

// LanguageFormats maps each language of the language table (pipeline/lang
// names) to the registered formats its ecosystem's test tools write, the
// tool named beside each. A recipe for a project in that language can pick
// one of them as test.format. A language that is missing here has no
// parser yet: adding one means a parser (one file and one Registry line)
// or a reporter of its ecosystem that writes a format already here, then
// one line in this map. test/languages checks that every name here is a
// language of the table and a registered format, and that every language
// of the table is here or declares the gap (docs/maintainers.md).
var LanguageFormats = map[string][]string{
	"Go":                 {"go-json", "junit"},   // go test -json; gotestsum --junitfile
	"Python":             {"junit", "pytest-ra"}, // pytest --junitxml; pytest -rA
	"Java":               {"junit"},              // Maven Surefire, Gradle
	"Kotlin":             {"junit"},              // Gradle
	"Scala":              {"junit"},              // sbt's test-reports
	"Rust":               {"cargo", "junit"},     // cargo test; cargo nextest's JUnit output
	"C":                  {"junit"},              // ctest --output-junit
	"C++":                {"junit"},              // GoogleTest --gtest_output=xml, ctest --output-junit
	"C/C++ Header":       {"junit"},              // tested through the C or C++ sources' tools
	"TypeScript":         {"junit"},              // jest-junit, mocha-junit-reporter
	"JavaScript":         {"junit"},              // jest-junit, mocha-junit-reporter
	"C#":                 {"junit"},              // dotnet test --logger junit (JunitXml.TestLogger)
	"Ruby":               {"junit"},              // rspec_junit_formatter, minitest-reporters
	"PHP":                {"junit"},              // phpunit --log-junit
	"Swift":              {"junit"},              // swift test --xunit-output
	"Objective-C":        {"junit"},              // xcodebuild | xcpretty --report junit
	"Lua":                {"junit"},              // busted --output=junit
	"Perl":               {"junit"},              // prove with TAP::Formatter::JUnit
	"Bourne Again Shell": {"junit"},              // bats --formatter junit
	"Haskell":            {"junit"},              // hspec-junit-formatter, tasty-ant-xml
	"OCaml":              {"junit"},              // junit_alcotest
	"Elixir":             {"junit"},              // mix test with junit_formatter
	"Erlang":             {"junit"},              // common_test's cth_surefire hook
	"Dart":               {"junit"},              // dart test --reporter json | tojunit (junitreport)
}
