package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/baseimage"
)

// NewCmdEnv groups the commands that prepare the machine lolbench runs on.
func NewCmdEnv(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Prepare this machine: the bundled offline base images",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newCmdEnvBase(f, nil))
	return cmd
}

// EnvBaseOptions are the parsed flags of `lolbench env base`.
type EnvBaseOptions struct {
	Langs []string
	Force bool
	Print bool
	JSON  bool
}

// envImages returns the offline images the --lang values ask for, parents
// first and each once: a language name (any case), an image key, or "all".
func envImages(langs []string) ([]*baseimage.Image, error) {
	want := map[*baseimage.Image]bool{}
	for _, l := range langs {
		for _, l := range strings.Split(l, ",") {
			l = strings.TrimSpace(l)
			im := baseimage.ForLanguage(l)
			if im == nil {
				im = baseimage.ByKey(l)
			}
			switch {
			case strings.EqualFold(l, "all"):
				for _, im := range baseimage.Images {
					want[im] = true
				}
			case im == nil:
				var keys []string
				for _, im := range baseimage.Images {
					keys = append(keys, strings.ToLower(strings.Join(im.Languages, ", ")))
				}
				return nil, fmt.Errorf("--lang %q: no offline base image serves it; the images serve %s (or say all); lolbench lang list shows every language", l, strings.Join(keys, "; "))
			default:
				want[im] = true
			}
		}
	}
	if len(want) == 0 {
		want[baseimage.Common] = true
	}
	var out []*baseimage.Image
	for _, im := range baseimage.Images {
		if want[im] {
			out = append(out, im)
		}
	}
	return out, nil
}

func newCmdEnvBase(f *Factory, runF func(*EnvBaseOptions) error) *cobra.Command {
	opts := &EnvBaseOptions{}
	cmd := &cobra.Command{
		Use:   "base",
		Short: "Build the bundled offline base images, or reuse them when cached",
		Long: `Base builds lolbench's offline base images from Debian's packages (no image
registry is needed). Without --lang it builds the common image: Debian
bookworm made with debootstrap, with git, Go, Python 3, pytest, coverage.py
and pip. --lang java builds the Java image, one layer on top of the common
one (built first when missing): OpenJDK 17, Maven offline against Debian's
repository, JUnit 5, Surefire, JaCoCo and lolbench's per-test coverage
listener. --lang rust builds the Rust image, also on the common one: rustc
1.63 and cargo offline against the crates Debian packages, LLVM 14's
coverage tools and lolbench-cargo-test. --lang node (or typescript, javascript) builds the node image:
Node.js 18, TypeScript and ts-node, and lolbench-node-test with its JUnit
reporter. --lang c (or cpp) builds the C and C++ image, also one layer on
the common one: gcc and g++ 12, CMake and CTest, cmocka, GoogleTest (and its
sources), gcovr and lolbench-ctest. --lang all builds every image; lolbench
lang list shows which language has one.

Recipes name them as "` + baseimage.Name + `" and pick one by their language: field (the
sample projects do). A tag is a hash of the build script (and of the
parent's tag), so a newer lolbench with a changed script builds a new image
instead of reusing a stale one; $` + baseimage.EnvVar + ` overrides the common image's tag
$` + baseimage.Java.EnvVar + ` the Java image's, $` + baseimage.Rust.EnvVar + ` the Rust image's. An image that exists is reused at
once. A first build takes a few minutes and needs root and Debian's package
mirror.

The tags are printed on standard output, one a line; progress goes to
standard error.`,
		Example: `  lolbench env base
  lolbench env base --lang java
  lolbench env base --lang rust
  lolbench env base --lang cpp
  lolbench env base --lang all --print   # the tags only, nothing built
  lolbench env base --force              # rebuild the common image and replace it`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ims, err := envImages(opts.Langs)
			if err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			tags := map[string]string{}
			for _, im := range ims {
				if !opts.Print {
					if err := im.Build(cmd.Context(), f.Getenv, opts.Force, f.IO.ErrOut); err != nil {
						return err
					}
				}
				tags[im.Key] = im.Tag(f.Getenv)
			}
			last := ims[len(ims)-1].Tag(f.Getenv)
			if opts.JSON {
				return printJSON(f.IO.Out, map[string]any{"image": last, "images": tags})
			}
			for _, im := range ims {
				fmt.Fprintln(f.IO.Out, tags[im.Key])
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&opts.Langs, "lang", nil, "build the image of these languages (java, rust, c, cpp, typescript, javascript, go, python, or all); default the common image")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "rebuild the images asked for even when they exist")
	cmd.Flags().BoolVar(&opts.Print, "print", false, "print the tags without building anything")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print {"image": TAG of the last image, "images": {KEY: TAG}}`)
	return cmd
}
