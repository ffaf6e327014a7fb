package augment

// Test hooks for the external tests of this folder (package augment_test),
// which can import stages that import this package (stages/export).
var (
	CalcCopy = calcCopy
	CalcID   = calcID
	CalcPkg  = calcPkg
)
