package augment

import (
	"bytes"
	"fmt"
	"strings"
)

// newFilePatch is the git patch that creates path with content. Every
// added test is a new file, so the added tests' patch never touches a file
// of the original test patch and the two apply one after the other.
func newFilePatch(path string, content []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n", path, path, path)
	text := string(content)
	noEOL := !strings.HasSuffix(text, "\n")
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	if text == "" {
		return b.Bytes()
	}
	fmt.Fprintf(&b, "@@ -0,0 +1,%d @@\n", len(lines))
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	if noEOL {
		b.WriteString("\\ No newline at end of file\n")
	}
	return b.Bytes()
}

// joinPatches concatenates patches, each ending with a newline.
func joinPatches(ps ...[]byte) []byte {
	var b bytes.Buffer
	for _, p := range ps {
		if len(p) == 0 {
			continue
		}
		b.Write(p)
		if p[len(p)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
