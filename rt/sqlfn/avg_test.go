package sqlfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func TestAvgFloat64(t *testing.T) {
	tests := []struct {
		sum   float64
		n     int64
		want  float64
		valid bool
	}{{10, 4, 2.5, true}, {-3, 2, -1.5, true}, {0, 3, 0, true}, {0, 0, 0, false}, {5, 0, 0, false}}
	for _, tt := range tests {
		if got, ok := AvgFloat64(tt.sum, tt.n); got != tt.want || ok != tt.valid {
			t.Errorf("AvgFloat64(%v, %d) = %v, %v, want %v, %v", tt.sum, tt.n, got, ok, tt.want, tt.valid)
		}
	}
}

func TestAvgDecimal(t *testing.T) {
	tests := []struct {
		name  string
		sum   int64 // unscaled, at scale ss
		ss    int32
		n     int64
		p, s  int32
		want  int64 // unscaled, at scale s
		valid bool
		class string
	}{
		{"10 / 3 at scale 4", 10, 0, 3, 14, 4, 33333, true, ""},
		{"2 / 3 at scale 0 rounds half up", 2, 0, 3, 10, 0, 1, true, ""},
		{"-5 / 2 at scale 0 rounds away from zero", -5, 0, 2, 10, 0, -3, true, ""},
		{"1.25 / 2 at scale 3 (sum scale 2)", 125, 2, 2, 10, 3, 625, true, ""},
		{"1.25 / 2 at scale 2 rounds half up", 125, 2, 2, 10, 2, 63, true, ""},
		{"no rows is NULL", 7, 0, 0, 10, 2, 0, false, ""},
		{"result does not fit", 999, 0, 1, 2, 0, 0, true, ClassNumericValueOutOfRange + ".WITH_SUGGESTION"},
	}
	for _, tt := range tests {
		got, ok, err := AvgDecimal(decimal128.FromI64(tt.sum), 38, tt.ss, tt.n, tt.p, tt.s)
		wantErr(t, tt.name, err, tt.class)
		if ok != tt.valid || (tt.class == "" && got != decimal128.FromI64(tt.want)) {
			t.Errorf("%s: AvgDecimal = %v, %v, want %d, %v", tt.name, got.BigInt(), ok, tt.want, tt.valid)
		}
	}
}
