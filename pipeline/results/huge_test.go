package results

import (
	"fmt"
	"io"
	"runtime"
	"testing"
)

// repeatReader streams block over and over until size bytes were produced,
// so that a huge log is tested without ever being held in memory.
type repeatReader struct {
	head, block, tail []byte
	size, done        int64
	stage             int // 0 head, 1 blocks, 2 tail
	off               int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for {
		var cur []byte
		switch r.stage {
		case 0:
			cur = r.head
		case 1:
			if r.done >= r.size {
				r.stage, r.off = 2, 0
				continue
			}
			cur = r.block
		case 2:
			cur = r.tail
		default:
			return 0, io.EOF
		}
		if r.off >= len(cur) {
			if r.stage != 1 {
				r.stage++
			}
			r.off = 0
			continue
		}
		n := copy(p, cur[r.off:])
		r.off += n
		if r.stage == 1 {
			r.done += int64(n)
		}
		return n, nil
	}
}

// hugeLogs are, per format, a log of size bytes that is almost all captured
// output, with a few result lines repeated throughout.
func hugeLog(format string, size int64) (io.Reader, []Result) {
	noise := "    at com.example.Something.method(Something.java:42) \x1b[2mcaptured output line\x1b[0m with some text\n"
	var head, block, tail string
	var want []Result
	switch format {
	case "go-json":
		block = `{"Time":"2026-01-01T00:00:00Z","Action":"output","Package":"p","Test":"TestA","Output":"` + "    noise noise noise noise noise noise noise noise noise noise\\n" + `"}` + "\n" +
			`{"Action":"run","Package":"p","Test":"TestA"}` + "\n" + `{"Action":"pass","Package":"p","Test":"TestA"}` + "\n"
		tail = `{"Action":"fail","Package":"p","Test":"TestB"}` + "\n"
		want = r("passed", "p.TestA", "failed", "p.TestB")
	case "cargo":
		head = "     Running unittests src/lib.rs (target/debug/deps/kv-0123456789abcdef)\n"
		block = noise + noise + "test t::a ... ok\n"
		tail = "test t::b ... FAILED\n"
		want = r("passed", "kv::t::a", "failed", "kv::t::b")
	case "pytest-ra":
		block = noise + noise + "PASSED in/captured/output.py::not_a_result\n"
		tail = "===== short test summary info =====\nPASSED t.py::a\nFAILED t.py::b - x\n"
		want = r("passed", "t.py::a", "failed", "t.py::b")
	case "junit":
		head = `<testsuite name="s" failures="1"><testcase classname="c" name="a"><system-out>`
		block = "captured &amp; output line with some text that goes on and on and on and on\n"
		tail = `</system-out></testcase><testcase classname="c" name="b"><failure/></testcase></testsuite>`
		want = r("passed", "c::a", "failed", "c::b")
	}
	return &repeatReader{head: []byte(head), block: []byte(block), tail: []byte(tail), size: size}, want
}

// peakReader samples the live heap every MiB read, to find the most memory
// a parser held while it read its input.
type peakReader struct {
	r     io.Reader
	since int
	peak  uint64
}

func (p *peakReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.since += n
	if p.since >= 1<<20 || err != nil {
		p.since = 0
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		p.peak = max(p.peak, m.HeapAlloc)
	}
	return n, err
}

// TestHugeLogs streams a 16 MiB log through each parser and checks the result
// and the heap at its peak: a line-based parser holds one line at a time, so
// its peak is a few MiB whatever the log's size (a 200 MB log costs the
// same); a JUnit report holds its largest text node once, in encoding/xml's
// buffer, so its bound is that node (here the whole log) and the buffer's
// growth, never several copies of the report.
func TestHugeLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 16 MiB per format")
	}
	const size = 16 << 20
	for _, tc := range []struct {
		format  string
		maxPeak uint64
	}{
		{"go-json", 8 << 20},
		{"cargo", 8 << 20},
		{"pytest-ra", 8 << 20},
		{"junit", 3 * size},
	} {
		t.Run(tc.format, func(t *testing.T) {
			p, _ := Lookup(tc.format)
			log, want := hugeLog(tc.format, size)
			runtime.GC()
			var base runtime.MemStats
			runtime.ReadMemStats(&base)
			in := &peakReader{r: log}
			got, err := p.ParseReader(in)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("got\n%swant\n%s", show(got), show(want))
			}
			var peak uint64
			if in.peak > base.HeapAlloc {
				peak = in.peak - base.HeapAlloc
			}
			t.Logf("%s: %d MiB log, heap peak %.1f MiB above the baseline", tc.format, size>>20, float64(peak)/(1<<20))
			if peak > tc.maxPeak {
				t.Errorf("heap peaked %d bytes above the baseline for a %d-byte log, want at most %d", peak, size, tc.maxPeak)
			}
		})
	}
}

// BenchmarkParse measures throughput on a 16 MiB streamed log per format.
func BenchmarkParse(b *testing.B) {
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			p, _ := Lookup(format)
			b.SetBytes(16 << 20)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				in, _ := hugeLog(format, 16<<20)
				if _, err := p.ParseReader(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
