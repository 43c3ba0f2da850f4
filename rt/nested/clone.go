package nested

import (
	"bytes"
	"strings"
)

// Clone is a deep copy of v (this package's form) that aliases no batch
// buffer: its strings and binaries are copied, so that an aggregate may
// keep it past the batch it was read from (collect_list of a nested
// column, a nested group key).
func Clone(v any) any {
	switch v := v.(type) {
	case Array:
		return Array(cloneParts(v))
	case Struct:
		return Struct(cloneParts(v))
	case *Map:
		return &Map{Keys: cloneParts(v.Keys), Values: cloneParts(v.Values)}
	case string:
		return strings.Clone(v)
	case []byte:
		return bytes.Clone(v)
	}
	return v
}

// cloneParts clones each part of a nested value.
func cloneParts(parts []any) []any {
	if parts == nil {
		return nil
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = Clone(p)
	}
	return out
}

// partBytes is what one part costs in a nested value beside its payload:
// its interface slot.
const partBytes = 16

// Bytes estimates the memory v holds, for --memory-limit: an interface
// slot per part plus the bytes of its strings and binaries (a scalar's
// boxed value is counted as its slot).
func Bytes(v any) int64 {
	n := int64(partBytes)
	switch v := v.(type) {
	case Array:
		n += partsBytes(v)
	case Struct:
		n += partsBytes(v)
	case *Map:
		n += partsBytes(v.Keys) + partsBytes(v.Values)
	case string:
		n += int64(len(v))
	case []byte:
		n += int64(len(v))
	}
	return n
}

// partsBytes is Bytes of each part, summed.
func partsBytes(parts []any) int64 {
	var n int64
	for _, p := range parts {
		n += Bytes(p)
	}
	return n
}
