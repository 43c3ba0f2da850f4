package format

import "github.com/nordisk/thund/internal/glob"

// File is one input file found by Glob.
type File = glob.File

// Glob resolves source patterns against root (the executable's --root), by
// the rules of internal/glob, which the compiler's schema inference shares:
// path.Match segments plus "**", a folder for every file below it, names
// starting with '.' or '_' skipped unless the pattern asks for them, sorted
// and deduplicated; a pattern that matches no file is an error naming it.
func Glob(root string, patterns []string) ([]File, error) { return glob.Glob(root, patterns) }
