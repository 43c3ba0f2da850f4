package nested

// As is a nested part v as a T, false for NULL: how generated code binds a
// lambda's parameter to an array's element or a map's key or value.
func As[T any](v any) (T, bool) { return as[T](v) }

// At is arr's element i, nil (NULL) past its end: zip_with pads the
// shorter array with NULLs.
func At(arr Array, i int) any {
	if i < len(arr) {
		return arr[i]
	}
	return nil
}

// ZipMaps is map_zip_with's entries: every key of a, then every key of b
// that a lacks, each with its value in a and in b (nil where missing).
func ZipMaps(a, b *Map) (keys, va, vb []any) {
	keys, va = append([]any(nil), a.Keys...), append([]any(nil), a.Values...)
	vb = make([]any, len(keys))
	for j, k := range b.Keys {
		found := false
		for i, ka := range a.Keys {
			if equal(ka, k) {
				vb[i], found = b.Values[j], true
				break
			}
		}
		if !found {
			keys, va, vb = append(keys, k), append(va, nil), append(vb, b.Values[j])
		}
	}
	return keys, va, vb
}
