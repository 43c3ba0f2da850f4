package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nordisk/thund/ir"
	"github.com/rogpeppe/go-internal/diff"
)

// runFmt implements `thundc fmt [-w] [-d] PATH`.
func runFmt(c *cli, inv *invocation) int {
	write, showDiff, asJSON := inv.bool("w"), inv.bool("d"), inv.bool("json")
	if asJSON && (write || showDiff) {
		return fail(c, inv.cmd, usagef("--json cannot be combined with -w or -d"))
	}
	in, err := openInput(inv.pipelinePaths()...)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	if (write || showDiff) && !in.fe.isText {
		return fail(c, inv.cmd, usagef("-w and -d need a .thund file; %q is %s", in.path, in.fe.what))
	}
	p, diags := in.load()
	addSource(diags, in.path, in.text)
	if p == nil {
		return report(c, asJSON, diags)
	}
	writeDiags(c.stderr, diags) // warnings
	if asJSON {
		b, err := ir.MarshalJSON(p)
		if err != nil {
			return fail(c, inv.cmd, err)
		}
		c.stdout.Write(b)
		return exitOK
	}
	canon := ir.Print(p)
	if showDiff {
		c.stdout.Write(diff.Diff(in.path+".orig", in.text, in.path, canon))
	}
	if write {
		if !bytes.Equal(in.text, canon) {
			if err := writeFileAtomic(in.path, canon); err != nil {
				return fail(c, inv.cmd, err)
			}
		}
	}
	if !write && !showDiff {
		c.stdout.Write(canon)
	}
	return exitOK
}

// writeFileAtomic replaces the file at path (following a symbolic link) with
// data: it writes a temporary file beside it, with the old file's
// permissions, and renames it over the old one, so a reader sees either the
// old text or the new, never a mix, and a failure leaves the old file as it
// was.
func writeFileAtomic(path string, data []byte) (err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(fi.Mode().Perm()); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
