package sqlfn

import "math"

// The statistical aggregates' accumulators (stddev, variance, skewness,
// kurtosis, corr, covariance and the regr_ family), each updated one
// non-NULL row at a time with the one-pass central-moment recurrences that
// Spark's CentralMomentAgg and Covariance use, so that the doubles agree
// with Spark's to rounding. Results follow Spark 4 with
// spark.sql.legacy.statisticalAggregate off: NULL over no rows, and NULL
// where the statistic divides by a zero count or spread (var_samp of one
// row, skewness of a constant), except corr, whose division by a zero
// spread is ANSI's DIVIDE_BY_ZERO as on Spark.

// Moments holds the count, the mean and the second to fourth central
// moment sums of the values added.
type Moments struct {
	N, Mean, M2, M3, M4 float64
}

// Add adds one value.
func (m *Moments) Add(x float64) {
	n1 := m.N
	m.N++
	delta := x - m.Mean
	deltaN := delta / m.N
	m.Mean += deltaN
	term := delta * deltaN * n1 // delta * (delta - deltaN)
	deltaN2 := deltaN * deltaN
	m.M4 += term*deltaN2*(m.N*m.N-3*m.N+3) + 6*deltaN2*m.M2 - 4*deltaN*m.M3
	m.M3 += term*deltaN*(m.N-2) - 3*deltaN*m.M2
	m.M2 += term
}

// VarPop is var_pop: M2 / n.
func (m *Moments) VarPop() (float64, bool) {
	if m.N == 0 {
		return 0, false
	}
	return m.M2 / m.N, true
}

// VarSamp is var_samp (variance): M2 / (n - 1), NULL below two rows.
func (m *Moments) VarSamp() (float64, bool) {
	if m.N < 2 {
		return 0, false
	}
	return m.M2 / (m.N - 1), true
}

// StddevPop is stddev_pop: the square root of var_pop.
func (m *Moments) StddevPop() (float64, bool) {
	v, ok := m.VarPop()
	return math.Sqrt(v), ok
}

// StddevSamp is stddev_samp (stddev, std): the square root of var_samp.
func (m *Moments) StddevSamp() (float64, bool) {
	v, ok := m.VarSamp()
	return math.Sqrt(v), ok
}

// Skewness is sqrt(n) * M3 / M2^1.5, NULL when M2 is 0.
func (m *Moments) Skewness() (float64, bool) {
	if m.N == 0 || m.M2 == 0 {
		return 0, false
	}
	return math.Sqrt(m.N) * m.M3 / math.Sqrt(m.M2*m.M2*m.M2), true
}

// Kurtosis is the excess kurtosis n * M4 / M2^2 - 3, NULL when M2 is 0.
func (m *Moments) Kurtosis() (float64, bool) {
	if m.N == 0 || m.M2 == 0 {
		return 0, false
	}
	return m.N*m.M4/(m.M2*m.M2) - 3, true
}

// CoMoments holds the count, the means and the co-moment sums of the
// pairs (x, y) added: Ck is the sum of (x - mean x)(y - mean y), XMk and
// YMk the sums of squares of each.
type CoMoments struct {
	N, XAvg, YAvg, Ck, XMk, YMk float64
}

// Add adds one pair.
func (c *CoMoments) Add(x, y float64) {
	c.N++
	dx := x - c.XAvg
	dy := y - c.YAvg
	c.XAvg += dx / c.N
	c.YAvg += dy / c.N
	c.Ck += dx * (y - c.YAvg)
	c.XMk += dx * (x - c.XAvg)
	c.YMk += dy * (y - c.YAvg)
}

// CovarPop is covar_pop(x, y): Ck / n.
func (c *CoMoments) CovarPop() (float64, bool) {
	if c.N == 0 {
		return 0, false
	}
	return c.Ck / c.N, true
}

// CovarSamp is covar_samp(x, y): Ck / (n - 1), NULL below two rows.
func (c *CoMoments) CovarSamp() (float64, bool) {
	if c.N < 2 {
		return 0, false
	}
	return c.Ck / (c.N - 1), true
}

// Corr is corr(x, y), Pearson's coefficient: NULL below two rows, and
// DIVIDE_BY_ZERO when x or y is constant (ANSI, as Spark raises it).
func (c *CoMoments) Corr() (float64, bool, *Error) {
	if c.N < 2 {
		return 0, false, nil
	}
	d := math.Sqrt(c.XMk * c.YMk)
	if d == 0 {
		return 0, false, ErrDivideByZero()
	}
	return c.Ck / d, true, nil
}

// The regr_ functions take (y, x): the pair is added as Add(x, y), so
// that X is the independent variable.

// RegrCount is regr_count(y, x): the number of pairs with neither NULL.
func (c *CoMoments) RegrCount() (int64, bool) { return int64(c.N), true }

// RegrAvgX is regr_avgx(y, x): the mean of x.
func (c *CoMoments) RegrAvgX() (float64, bool) { return c.XAvg, c.N > 0 }

// RegrAvgY is regr_avgy(y, x): the mean of y.
func (c *CoMoments) RegrAvgY() (float64, bool) { return c.YAvg, c.N > 0 }

// RegrSXX is regr_sxx(y, x): the sum of squares of x's deviations.
func (c *CoMoments) RegrSXX() (float64, bool) { return c.XMk, c.N > 0 }

// RegrSYY is regr_syy(y, x): the sum of squares of y's deviations.
func (c *CoMoments) RegrSYY() (float64, bool) { return c.YMk, c.N > 0 }

// RegrSXY is regr_sxy(y, x): the sum of the products of the deviations.
func (c *CoMoments) RegrSXY() (float64, bool) { return c.Ck, c.N > 0 }

// RegrSlope is regr_slope(y, x): covar_pop / var_pop(x), NULL when x is
// constant.
func (c *CoMoments) RegrSlope() (float64, bool) {
	if c.N == 0 || c.XMk == 0 {
		return 0, false
	}
	return (c.Ck / c.N) / (c.XMk / c.N), true
}

// RegrIntercept is regr_intercept(y, x): mean y - slope * mean x.
func (c *CoMoments) RegrIntercept() (float64, bool) {
	s, ok := c.RegrSlope()
	if !ok {
		return 0, false
	}
	return c.YAvg - s*c.XAvg, true
}

// RegrR2 is regr_r2(y, x): NULL when x is constant, 1 when y is, else
// corr squared.
func (c *CoMoments) RegrR2() (float64, bool) {
	switch {
	case c.N == 0 || c.XMk == 0:
		return 0, false
	case c.YMk == 0:
		return 1, true
	}
	r := c.Ck / math.Sqrt(c.XMk*c.YMk)
	return r * r, true
}
