// Package baseimage is lolbench's bundled offline base image: a Debian
// bookworm root filesystem made with debootstrap from Debian's packages and
// imported into Docker, for machines where no image registry can be reached
// (issue 13). The sample projects' recipes name it, and `lolbench env base`
// builds it.
//
// A recipe names it as Name, without a tag. Resolve turns that name into the
// content tag (a hash of the embedded build script, so a changed script
// yields a new tag and nothing stale is reused), or into the tag that
// $LOLBENCH_BASE_IMAGE names.
package baseimage

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Name is what a recipe's image field says to mean the bundled offline
// base image.
const Name = "lolbench/offline-base"

// EnvVar overrides the tag Name resolves to.
const EnvVar = "LOLBENCH_BASE_IMAGE"

// BuildCommand is the command that builds the image, for error messages.
const BuildCommand = "lolbench env base"

//go:embed base-image.sh
var script []byte

// Script is the build script (debootstrap, docker import, check).
func Script() []byte { return script }

// ContentTag is Name with the tag derived from the build script:
// "lolbench/offline-base:bookworm-<12 hex digits>".
func ContentTag() string {
	h := sha256.Sum256(script)
	return Name + ":bookworm-" + hex.EncodeToString(h[:])[:12]
}

// Tag is the tag the bundled image has on this machine: $LOLBENCH_BASE_IMAGE
// when set, else ContentTag.
func Tag(getenv func(string) string) string {
	if getenv != nil {
		if t := strings.TrimSpace(getenv(EnvVar)); t != "" {
			return t
		}
	}
	return ContentTag()
}

// Resolve returns the image a recipe's image field means: Tag for Name, the
// field itself for anything else.
func Resolve(image string, getenv func(string) string) string {
	if image == Name {
		return Tag(getenv)
	}
	return image
}

// IsOffline reports whether a resolved image is the bundled offline base,
// which no registry has: a missing one must be built, not pulled.
func IsOffline(resolved string, getenv func(string) string) bool {
	return resolved == Tag(getenv) || strings.HasPrefix(resolved, Name+":")
}

// Build runs the build script for tag; it returns at once when the image
// exists, unless force is set. The script's progress lines go to w.
func Build(ctx context.Context, tag string, force bool, w io.Writer) error {
	dir, err := os.MkdirTemp("", "lolbench-base-image-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "base-image.sh")
	if err := os.WriteFile(p, script, 0o755); err != nil {
		return err
	}
	args := []string{p, "--tag", tag}
	if force {
		args = append(args, "--force")
	}
	cmd := exec.CommandContext(ctx, "bash", args...)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("build the offline base image %s: %w (its last lines above say where it stopped)", tag, err)
	}
	return nil
}
