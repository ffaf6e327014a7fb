package languages

import (
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
)

// The coinage sample's task, as the build finds it: the tests of the two
// files the PR leaves alone pass on both sides (the four files that call
// what CGEP-3 adds are set aside before the solution, so the other two
// still run); every other test is FAIL_TO_PASS.
var (
	coinageP2P = []string{
		"org.example.coinage.CurrencyTest::internsByCode",
		"org.example.coinage.CurrencyTest::refusesUnknownCodes",
		"org.example.coinage.MoneyTest$Arithmetic::addsAndSubtracts",
		"org.example.coinage.MoneyTest$Arithmetic::multipliesAndNegates",
		"org.example.coinage.MoneyTest$Arithmetic::refusesMixedCurrencies",
		"org.example.coinage.MoneyTest::parsesDecimalAmounts{String, String, long}[1]",
		"org.example.coinage.MoneyTest::parsesDecimalAmounts{String, String, long}[2]",
		"org.example.coinage.MoneyTest::parsesDecimalAmounts{String, String, long}[3]",
		"org.example.coinage.MoneyTest::parsesDecimalAmounts{String, String, long}[4]",
		"org.example.coinage.MoneyTest::parsesDecimalAmounts{String, String, long}[5]",
		"org.example.coinage.MoneyTest::printsAmountAndCode",
		"org.example.coinage.MoneyTest::tooManyDecimals",
	}
	coinageF2P = 46
	// The implementable sections whose section revert (or its stub
	// revert) must be killed: every one with source lines.
	coinageReverted = []string{"3.1", "3.2", "3.3", "3.4", "3.5", "4"}
)

// TestJavaSample runs every stage on the Java sample (issue 22), with
// per-test JaCoCo coverage; three canaries, one per test folder.
func TestJavaSample(t *testing.T) {
	testSample(t, sampleTask{
		language: "Java", id: "coinage-cgep-0003", image: baseimage.Java,
		f2pCount: coinageF2P, p2p: coinageP2P,
		sections: []string{"3.1", "3.2", "3.3", "3.4", "3.5", "4"},
		adapter:  "jacoco", killed: coinageReverted, canaries: 3,
	})
}
