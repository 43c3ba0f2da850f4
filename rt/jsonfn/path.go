package jsonfn

import (
	"strconv"
	"strings"
	"sync"
)

// step is one instruction of a JSON path, as Spark parses get_json_object's
// path: .name and ['name'] are stepKey then stepNamed, [n] stepSubscript
// then stepIndex, [*] stepSubscript then stepWildcard; .* and ['*'] are a
// lone stepWildcard (which no value matches).
type step struct {
	op    stepOp
	name  string
	index int64
}

type stepOp uint8

const (
	stepKey stepOp = iota
	stepNamed
	stepSubscript
	stepIndex
	stepWildcard
)

// parsePath parses a JSON path: $ followed by .name (a name runs to the
// next '.' or '['), ['name'] (no ' or ? in it), [n], [*], .* or ['*'].
// ok is false when the path is not one.
func parsePath(p string) ([]step, bool) {
	if !strings.HasPrefix(p, "$") {
		return nil, false
	}
	var out []step
	for p = p[1:]; p != ""; {
		switch {
		case strings.HasPrefix(p, ".*"):
			out, p = append(out, step{op: stepWildcard}), p[2:]
		case strings.HasPrefix(p, "['*']"):
			out, p = append(out, step{op: stepWildcard}), p[5:]
		case p[0] == '.':
			n := strings.IndexAny(p[1:], ".[")
			if n < 0 {
				n = len(p) - 1
			}
			if n == 0 {
				return nil, false
			}
			out, p = append(out, step{op: stepKey}, step{op: stepNamed, name: p[1 : 1+n]}), p[1+n:]
		case strings.HasPrefix(p, "['"):
			n := strings.IndexAny(p[2:], "'?")
			if n <= 0 || !strings.HasPrefix(p[2+n:], "']") {
				return nil, false
			}
			out, p = append(out, step{op: stepKey}, step{op: stepNamed, name: p[2 : 2+n]}), p[2+n+2:]
		case strings.HasPrefix(p, "[*]"):
			out, p = append(out, step{op: stepSubscript}, step{op: stepWildcard}), p[3:]
		case p[0] == '[':
			n := strings.IndexByte(p, ']')
			if n < 2 {
				return nil, false
			}
			for _, c := range p[1:n] {
				if c < '0' || c > '9' {
					return nil, false
				}
			}
			i, err := strconv.ParseInt(p[1:n], 10, 64)
			if err != nil {
				return nil, false
			}
			out, p = append(out, step{op: stepSubscript}, step{op: stepIndex, index: i}), p[n+1:]
		default:
			return nil, false
		}
	}
	return out, true
}

// paths caches parsed paths: a pipeline's paths are nearly always constants.
var paths sync.Map // string -> pathEntry

type pathEntry struct {
	steps []step
	ok    bool
}

// maxCachedPaths bounds the cache when paths vary by row.
const maxCachedPaths = 1024

var cachedPaths sync.Mutex
var nCachedPaths int

// lookupPath is parsePath through the cache.
func lookupPath(p string) ([]step, bool) {
	if e, ok := paths.Load(p); ok {
		return e.(pathEntry).steps, e.(pathEntry).ok
	}
	steps, ok := parsePath(p)
	cachedPaths.Lock()
	if nCachedPaths < maxCachedPaths {
		nCachedPaths++
		paths.Store(p, pathEntry{steps, ok})
	}
	cachedPaths.Unlock()
	return steps, ok
}

// style is how a matched value is written: raw (a string unquoted), quoted
// (within an array a wildcard builds), or flattened (an array's elements
// spliced into the enclosing one, under a double wildcard).
type style uint8

const (
	styleRaw style = iota
	styleQuoted
	styleFlatten
)

// eval writes what path selects of v to w, and reports whether anything
// matched; it follows Spark's (Hive's) rules for wildcards: one match of a
// wildcard is written bare, several as an array.
func eval(v value, w *writer, st style, path []step) bool {
	if len(path) == 0 {
		switch {
		case v.kind == kString && st == styleRaw:
			w.buf = append(w.buf, v.text...)
			return true
		case v.kind == kArray && st == styleFlatten:
			dirty := false
			for _, e := range v.elems {
				dirty = eval(e, w, st, nil) || dirty
			}
			return dirty
		}
		w.copy(v)
		return true
	}
	at := func(ops ...stepOp) bool {
		if len(path) < len(ops) {
			return false
		}
		for i, op := range ops {
			if path[i].op != op {
				return false
			}
		}
		return true
	}
	switch {
	case v.kind == kObject && path[0].op == stepKey:
		rest := path[1:]
		for i, e := range v.elems {
			if len(rest) > 0 && rest[0].op == stepNamed && rest[0].name == v.names[i] && e.kind != kNull {
				if eval(e, w, st, rest[1:]) {
					return true // the first match wins; the other fields are skipped
				}
			}
		}
		return false
	case v.kind != kArray:
		return false
	case at(stepSubscript, stepWildcard, stepSubscript, stepWildcard):
		dirty := false
		w.startArray()
		for _, e := range v.elems {
			dirty = eval(e, w, styleFlatten, path[4:]) || dirty
		}
		w.endArray()
		return dirty
	case at(stepSubscript, stepWildcard) && st != styleQuoted:
		next := styleQuoted
		if st == styleFlatten {
			next = styleFlatten
		}
		sub := &writer{}
		sub.startArray()
		n := 0
		for _, e := range v.elems {
			if eval(e, sub, next, path[2:]) {
				n++
			}
		}
		sub.endArray()
		switch {
		case n > 1:
			w.rawValue(sub.buf)
		case n == 1:
			w.rawValue(sub.buf[1 : len(sub.buf)-1])
		}
		return n > 0
	case at(stepSubscript, stepWildcard):
		dirty := false
		w.startArray()
		for _, e := range v.elems {
			dirty = eval(e, w, styleQuoted, path[2:]) || dirty
		}
		w.endArray()
		return dirty
	case at(stepSubscript, stepIndex):
		i := path[1].index
		if i >= int64(len(v.elems)) {
			return false
		}
		if at(stepSubscript, stepIndex, stepSubscript, stepWildcard) {
			st = styleQuoted
		}
		return eval(v.elems[i], w, st, path[2:])
	}
	return false
}
