package thund

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// Runtime is the source of the runtime that every generated program links:
// this module's go.mod and go.sum (the pinned dependency versions) and the
// folders of gobuild.RuntimeDirs: rt/ and internal/glob, the one package
// outside rt/ that rt imports (it shares the source globs with the
// compiler; TestRuntimeImports keeps the two lists in step). thundc writes
// it beside the generated code, so a pipeline is always built against the
// runtime thundc was built with, never another version.
//
//go:embed go.mod go.sum rt internal/glob internal/kafkaopt
var Runtime embed.FS

// RuntimeVersion identifies the embedded runtime: a short hash of its source,
// so that two thundc builds with the same runtime report the same version.
func RuntimeVersion() string {
	runtimeOnce.Do(func() {
		h := sha256.New()
		fs.WalkDir(Runtime, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "/testdata/") {
				return nil
			}
			data, _ := Runtime.ReadFile(path)
			fmt.Fprintf(h, "%s %d\n", path, len(data))
			h.Write(data)
			return nil
		})
		runtimeVersion = "rt-" + hex.EncodeToString(h.Sum(nil))[:12]
	})
	return runtimeVersion
}

var (
	runtimeOnce    sync.Once
	runtimeVersion string
)
