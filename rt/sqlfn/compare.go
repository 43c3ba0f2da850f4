package sqlfn

import "math"

// Floating-point order for sorting, grouping and comparison, as Spark defines
// it (SQLOrderingUtil.compareDoubles, NormalizeFloatingNumbers): NaN is
// greater than every other value and equal to itself, and -0.0 equals 0.0.

// CompareFloat64 returns -1, 0 or +1.
func CompareFloat64(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	// At least one NaN.
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}

// CompareFloat32 is CompareFloat64 for FLOAT.
func CompareFloat32(a, b float32) int { return CompareFloat64(float64(a), float64(b)) }

// EqualFloat64 is SQL '=' on DOUBLE: NaN = NaN and -0.0 = 0.0 are true.
func EqualFloat64(a, b float64) bool { return a == b || (a != a && b != b) }

// EqualFloat32 is SQL '=' on FLOAT.
func EqualFloat32(a, b float32) bool { return a == b || (a != a && b != b) }

// NormalizeFloat64 maps -0.0 to 0.0 and every NaN to one NaN, so values that
// compare equal hash and group equal.
func NormalizeFloat64(v float64) float64 {
	switch {
	case v != v:
		return math.NaN()
	case v == 0:
		return 0
	}
	return v
}

// NormalizeFloat32 is NormalizeFloat64 for FLOAT.
func NormalizeFloat32(v float32) float32 {
	switch {
	case v != v:
		return float32(math.NaN())
	case v == 0:
		return 0
	}
	return v
}

// CompareBool orders BOOLEAN values, false before true: -1, 0 or +1.
func CompareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}
