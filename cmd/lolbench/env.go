package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/sandbox/baseimage"
)

// NewCmdEnv groups the commands that prepare the machine lolbench runs on.
func NewCmdEnv(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Prepare this machine: the bundled offline base image",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newCmdEnvBase(f, nil))
	return cmd
}

// EnvBaseOptions are the parsed flags of `lolbench env base`.
type EnvBaseOptions struct {
	Force bool
	Print bool
	JSON  bool
}

func newCmdEnvBase(f *Factory, runF func(*EnvBaseOptions) error) *cobra.Command {
	opts := &EnvBaseOptions{}
	cmd := &cobra.Command{
		Use:   "base",
		Short: "Build the bundled offline base image, or reuse it when cached",
		Long: `Base builds lolbench's offline base image: Debian bookworm made with
debootstrap from Debian's packages (no image registry is needed), with git,
Go, Python 3, pytest, coverage.py and pip, imported into the Docker engine.

Recipes name it as "` + baseimage.Name + `" (the sample projects do). Its tag is a hash
of the build script, so a newer lolbench with a changed script builds a new
image instead of reusing a stale one; $` + baseimage.EnvVar + ` overrides the tag.
When the image exists the command returns at once. A first build takes a few
minutes and needs root (debootstrap) and Debian's package mirror.

The image's tag is printed on standard output; progress goes to standard error.`,
		Example: `  lolbench env base
  lolbench env base --print      # the tag only, nothing built
  lolbench env base --force      # rebuild and replace it`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			tag := baseimage.Tag(f.Getenv)
			if !opts.Print {
				if err := baseimage.Build(cmd.Context(), tag, opts.Force, f.IO.ErrOut); err != nil {
					return err
				}
			}
			if opts.JSON {
				return printJSON(f.IO.Out, map[string]string{"image": tag})
			}
			fmt.Fprintln(f.IO.Out, tag)
			return nil
		},
	}
	cmd.Flags().BoolVar(&opts.Force, "force", false, "rebuild even when the image exists")
	cmd.Flags().BoolVar(&opts.Print, "print", false, "print the tag without building anything")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print {"image": TAG}`)
	return cmd
}
