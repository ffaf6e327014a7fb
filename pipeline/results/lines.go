package results

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine caps one line of a text log. Longer lines (a test that printed a
// megabyte without a newline) are cut: no result line of any format comes
// near this, and the cap bounds memory whatever the input.
const maxLine = 1 << 20

// eachLine calls fn with every line of r, without its line ending and with
// ANSI escape sequences removed, in order. The slice is only valid during the
// call. Memory stays bounded by maxLine whatever the size of r.
func eachLine(r io.Reader, fn func(line []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long, clean []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Part of an over-long line: keep up to maxLine of it.
			if room := maxLine - len(long); room > 0 {
				if len(chunk) > room {
					chunk = chunk[:room]
				}
				long = append(long, chunk...)
			}
			continue
		}
		line := chunk
		if len(long) > 0 {
			if room := maxLine - len(long); room > 0 {
				if len(chunk) > room {
					chunk = chunk[:room]
				}
				long = append(long, chunk...)
			}
			line = long
		}
		if len(line) > 0 {
			line = bytes.TrimSuffix(line, []byte("\n"))
			line = bytes.TrimSuffix(line, []byte("\r"))
			clean = stripANSI(clean[:0], line)
			fn(clean)
		}
		long = long[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// stripANSI appends src to dst without ANSI/VT100 escape sequences (colours
// from cargo's and pytest's --color=always, cursor movement, OSC titles and
// charset selections such as "\x1b(B" that terminfo emits after a colour).
// A stray carriage return inside a line (progress redraws) keeps only what
// follows it, as a terminal would show.
func stripANSI(dst, src []byte) []byte {
	if bytes.IndexByte(src, 0x1b) < 0 && bytes.IndexByte(src, '\r') < 0 {
		return append(dst, src...)
	}
	start := len(dst)
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\r':
			dst = dst[:start]
			i++
		case c != 0x1b:
			dst = append(dst, c)
			i++
		case i+1 >= len(src):
			i++
		default:
			switch src[i+1] {
			case '[': // CSI: parameters and intermediates, then a final byte 0x40-0x7e
				j := i + 2
				for j < len(src) && (src[j] < 0x40 || src[j] > 0x7e) {
					j++
				}
				i = j + 1
			case ']', 'P', '_', '^': // OSC, DCS, APC, PM: until BEL or ESC \
				j := i + 2
				for j < len(src) && src[j] != 0x07 && !(src[j] == 0x1b && j+1 < len(src) && src[j+1] == '\\') {
					j++
				}
				if j < len(src) && src[j] == 0x1b {
					j++
				}
				i = j + 1
			case '(', ')', '*', '+', '#', '%': // charset selection: one more byte
				i += 3
			default: // two-byte sequence such as ESC 7, ESC =
				i += 2
			}
		}
	}
	return dst
}
