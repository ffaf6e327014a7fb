package harbor

import (
	"archive/tar"
	"io"

	"github.com/lolbench/lolbench/pipeline/sandbox"
)

func ioPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }

func writeTar(w io.Writer, tree sandbox.Tree) error {
	tw := tar.NewWriter(w)
	if err := tree.WriteTar(tw, ""); err != nil {
		return err
	}
	return tw.Close()
}
