package sqlfn

import (
	"math"
	"testing"
)

// The expected values below are Spark 4.1.4's and 4.2.1's answers for the
// same input (SELECT stddev(x), ... FROM VALUES ...).

// near reports whether got is within 1e-12 relative of want.
func near(got, want float64) bool {
	return got == want || math.Abs(got-want) <= 1e-12*math.Max(math.Abs(got), math.Abs(want))
}

func TestMoments(t *testing.T) {
	var m Moments
	for _, x := range []float64{1, 2, 4} {
		m.Add(x)
	}
	for _, c := range []struct {
		name string
		fn   func() (float64, bool)
		want float64
	}{
		{"stddev_samp", m.StddevSamp, 1.5275252316519468},
		{"stddev_pop", m.StddevPop, 1.247219128924647},
		{"var_samp", m.VarSamp, 2.3333333333333335},
		{"var_pop", m.VarPop, 1.5555555555555556},
		{"skewness", m.Skewness, 0.3818017741606063},
		{"kurtosis", m.Kurtosis, -1.5},
	} {
		if got, ok := c.fn(); !ok || !near(got, c.want) {
			t.Errorf("%s = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
}

func TestMomentsFewRows(t *testing.T) {
	var none, one, same Moments
	one.Add(5)
	same.Add(5)
	same.Add(5)
	if _, ok := none.VarPop(); ok {
		t.Error("var_pop of no rows is not NULL")
	}
	if v, ok := one.VarPop(); !ok || v != 0 {
		t.Errorf("var_pop of one row = %v, %v; want 0", v, ok)
	}
	if _, ok := one.VarSamp(); ok {
		t.Error("var_samp of one row is not NULL")
	}
	if v, ok := same.StddevSamp(); !ok || v != 0 {
		t.Errorf("stddev of two equal rows = %v, %v; want 0", v, ok)
	}
	if _, ok := same.Skewness(); ok {
		t.Error("skewness of equal rows is not NULL")
	}
	if _, ok := same.Kurtosis(); ok {
		t.Error("kurtosis of equal rows is not NULL")
	}
}

func TestRegr(t *testing.T) {
	// regr_*(y, x) over (y, x) = (1, 2), (2, 4), (4, 7)
	var c CoMoments
	for _, p := range [][2]float64{{1, 2}, {2, 4}, {4, 7}} {
		c.Add(p[1], p[0])
	}
	if n, ok := c.RegrCount(); !ok || n != 3 {
		t.Errorf("regr_count = %v", n)
	}
	for _, r := range []struct {
		name string
		fn   func() (float64, bool)
		want float64
	}{
		{"regr_avgx", c.RegrAvgX, 4.333333333333333},
		{"regr_avgy", c.RegrAvgY, 2.3333333333333335},
		{"regr_slope", c.RegrSlope, 0.605263157894737},
		{"regr_intercept", c.RegrIntercept, -0.28947368421052655},
		{"regr_r2", c.RegrR2, 0.994360902255639},
		{"regr_sxx", c.RegrSXX, 12.666666666666666},
		{"regr_syy", c.RegrSYY, 4.666666666666667},
		{"regr_sxy", c.RegrSXY, 7.666666666666666},
	} {
		if got, ok := r.fn(); !ok || !near(got, r.want) {
			t.Errorf("%s = %v, %v; want %v", r.name, got, ok, r.want)
		}
	}
	// x constant: slope NULL; y constant: r2 1
	var cx, cy CoMoments
	cx.Add(2, 1)
	cx.Add(2, 2)
	cy.Add(2, 1)
	cy.Add(3, 1)
	if _, ok := cx.RegrSlope(); ok {
		t.Error("regr_slope of a constant x is not NULL")
	}
	if v, ok := cy.RegrR2(); !ok || v != 1 {
		t.Errorf("regr_r2 of a constant y = %v, %v; want 1", v, ok)
	}
}

func TestCorr(t *testing.T) {
	var one, constant CoMoments
	one.Add(1, 2)
	if _, ok, err := one.Corr(); ok || err != nil {
		t.Errorf("corr of one row: %v %v; want NULL", ok, err)
	}
	if v, ok := one.CovarPop(); !ok || v != 0 {
		t.Errorf("covar_pop of one row = %v; want 0", v)
	}
	if _, ok := one.CovarSamp(); ok {
		t.Error("covar_samp of one row is not NULL")
	}
	constant.Add(1, 2)
	constant.Add(1, 3)
	if _, _, err := constant.Corr(); err == nil || err.Class != ClassDivideByZero {
		t.Errorf("corr of a constant x: %v; want DIVIDE_BY_ZERO", err)
	}
}

func TestPercentile(t *testing.T) {
	var p Percentile
	for _, x := range []float64{10, 2, 4, 1} {
		p.Add(x, 1)
	}
	for pct, want := range map[float64]float64{0.5: 3, 0.25: 1.75, 0: 1, 1: 10} {
		if got, ok := p.Result(pct); !ok || got != want {
			t.Errorf("percentile(%v) = %v; want %v", pct, got, want)
		}
	}
	var f Percentile
	for _, x := range []float64{1, 2, 4, 10} {
		f.Add(x, 2)
	}
	if got, _ := f.Result(0.3); got != 2 {
		t.Errorf("percentile(x, 0.3, 2) = %v; want 2", got)
	}
	var nan Percentile // NaN sorts last
	for _, x := range []float64{1, math.NaN(), 3} {
		nan.Add(x, 1)
	}
	if got, _ := nan.Result(0.5); got != 3 {
		t.Errorf("percentile over a NaN = %v; want 3", got)
	}
	if err := PercentileFrequency(-1, "f"); err == nil || err.Class != ClassNegativeFrequency || err.SQLState() != "22003" {
		t.Errorf("negative frequency: %v", err)
	}
	var empty Percentile
	if _, ok := empty.Result(0.5); ok {
		t.Error("percentile of no rows is not NULL")
	}
}

func TestQuantile(t *testing.T) {
	var q Quantile[int32]
	for _, x := range []int32{3, 1, 2} {
		q.Add(x)
	}
	for pct, want := range map[float64]int32{0: 1, 1: 3, 0.7: 3, 0.5: 2} {
		if got, ok := q.Result(pct); !ok || got != want {
			t.Errorf("percentile_approx(%v) = %v; want %v", pct, got, want)
		}
	}
}

// Spark's sketch holds doubles (ApproximatePercentile adds each long as
// a double and narrows its answer with toLong): a long beyond 2^53 comes
// back rounded, and one rounding to 2^63 saturates. The conformance view
// ag_pct_edge asks for it (percentile_approx(y, 0.9) over 2^63 - 1,
// 2^63 - 1 and 2^63 - 2) in TestSparkConformance.
func TestQuantileLongViaDouble(t *testing.T) {
	var q Quantile[int64]
	for _, x := range []int64{math.MaxInt64, math.MaxInt64 - 1, 1<<53 + 1, math.MinInt64 + 1} {
		q.Add(x)
	}
	for pct, want := range map[float64]int64{0: math.MinInt64, 0.5: 1 << 53, 0.75: math.MaxInt64, 1: math.MaxInt64} {
		if got, ok := q.Result(pct); !ok || got != want {
			t.Errorf("percentile_approx(%v) = %v; want %v", pct, got, want)
		}
	}
}
