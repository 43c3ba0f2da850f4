package nested

// As is a nested part v as a T, false for NULL: how generated code binds a
// lambda's parameter to an array's element or a map's key or value.
func As[T any](v any) (T, bool) { return as[T](v) }
