package window

import "github.com/nordisk/thund/rt/sqlfn"

// Moments is a moment statistic of the aggregate family (stddev,
// variance, skewness, kurtosis; stat one of sqlfn.Moments' results) over
// each row's frame, NULL (outOK false) where stat is. The moments are
// added up from the frame's start in order, as Spark's window frames
// update an aggregate's buffer: kept while the start stays (a growing
// frame), added up again when it moves (a sliding one).
func Moments(out []float64, outOK []bool, vals []float64, ok []bool, f *Frames, stat func(*sqlfn.Moments) (float64, bool)) {
	s, e := int32(-1), int32(0)
	var m sqlfn.Moments
	for i := range out {
		if f.Start[i] != s {
			s, e = f.Start[i], f.Start[i]
			m = sqlfn.Moments{}
		}
		for ; e < f.End[i]; e++ {
			if ok == nil || ok[e] {
				m.Add(vals[e])
			}
		}
		out[i], outOK[i] = stat(&m)
	}
}

// Percentile is percentile(x, pct) and median (pct 0.5) over each row's
// frame, NULL (outOK false) where the frame holds no value: the frame's
// values sorted again per row, as Spark's percentile aggregate collects
// them per frame.
func Percentile(out []float64, outOK []bool, vals []float64, ok []bool, f *Frames, pct float64) {
	var p sqlfn.Percentile
	for i := range out {
		p.Reset()
		for e := f.Start[i]; e < f.End[i]; e++ {
			if ok == nil || ok[e] {
				p.Add(vals[e], 1)
			}
		}
		out[i], outOK[i] = p.Result(pct)
	}
}

// CoMoments is a pair statistic of the aggregate family (corr, covar_*,
// regr_*; stat a sqlfn.CoMoments result) over each row's frame of the
// pairs (xs, ys) where ok (nil: every row) holds, added up from the
// frame's start as Moments does; regr swaps them (regr_*(y, x) adds
// (x, y)). stat's error (corr's DIVIDE_BY_ZERO) stops it.
func CoMoments(out []float64, outOK []bool, xs, ys []float64, ok []bool, f *Frames, regr bool,
	stat func(*sqlfn.CoMoments) (float64, bool, *sqlfn.Error)) *sqlfn.Error {
	if regr {
		xs, ys = ys, xs
	}
	s, e := int32(-1), int32(0)
	var c sqlfn.CoMoments
	var err *sqlfn.Error
	for i := range out {
		if f.Start[i] != s {
			s, e = f.Start[i], f.Start[i]
			c = sqlfn.CoMoments{}
		}
		for ; e < f.End[i]; e++ {
			if ok == nil || ok[e] {
				c.Add(xs[e], ys[e])
			}
		}
		if out[i], outOK[i], err = stat(&c); err != nil {
			return err
		}
	}
	return nil
}
