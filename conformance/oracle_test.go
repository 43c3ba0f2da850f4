package conformance

import (
	"math"
	"testing"
)

// TestJavaDouble checks the oracle's own Double.toString (the UDF behind
// CAST(double AS STRING)) on values whose Java (JDK 19+) output is known.
func TestJavaDouble(t *testing.T) {
	for v, want := range map[float64]string{
		5e-324: "4.9E-324", 2e-323: "2.0E-323", 1e23: "1.0E23", 100: "100.0", 1: "1.0", 0.001: "0.001",
		1e7: "1.0E7", 123456789: "1.23456789E8", 1.5: "1.5", -2.5e-5: "-2.5E-5", 1e300: "1.0E300",
		9999999: "9999999.0", 0.1: "0.1", 1e-4: "1.0E-4", 12345.678: "12345.678", -1000.5: "-1000.5",
		math.Inf(1): "Infinity", math.Inf(-1): "-Infinity", math.Copysign(0, -1): "-0.0", 0: "0.0",
	} {
		if got := javaDouble(v); got != want {
			t.Errorf("javaDouble(%v) = %q, want %q", v, got, want)
		}
	}
	if got := javaDouble(math.NaN()); got != "NaN" {
		t.Errorf("javaDouble(NaN) = %q", got)
	}
}
