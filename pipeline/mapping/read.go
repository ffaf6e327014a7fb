package mapping

import "github.com/lolbench/lolbench/pipeline/workspace"

// MaxSize is the mapping size cap, applied wherever an artifact is read
// from a file: a real mapping is a few kilobytes, a 100,000-row one a few
// megabytes, and /dev/zero must not exhaust memory.
const MaxSize = 16 << 20

// SizeCap names MaxSize in errors.
const SizeCap = "the mapping size cap"

// ReadFile reads the artifact at path: a regular file (not a link, a
// device or a pipe) within MaxSize. Every error names the file.
func ReadFile(path string) ([]byte, error) {
	return workspace.ReadFile(path, MaxSize, SizeCap)
}
