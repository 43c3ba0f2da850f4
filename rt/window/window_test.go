package window

import (
	"cmp"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/nordisk/thund/rt/sqlfn"
)

// The property test: every function of the package, over every frame kind
// and bound combination, against a naive O(m²) evaluator written from
// Spark's definitions (a frame is the rows that satisfy its bounds'
// comparisons; rank counts the rows sorting before), on random partitions
// with many ties, NULL keys and values, NULLs first and last, ascending and
// descending, and empty and one-row partitions.

type part struct {
	keys  []int64
	kok   []bool // key not NULL
	vals  []int64
	vok   []bool
	desc  bool
	nullF bool // NULLS FIRST
}

// cmpSort compares two keys in the partition's sort order, NULL by its
// place (cmp of key a, NULL when !aok).
func (p *part) cmpSort(a int64, aok bool, b int64, bok bool) int {
	switch {
	case !aok && !bok:
		return 0
	case !aok:
		if p.nullF {
			return -1
		}
		return 1
	case !bok:
		if p.nullF {
			return 1
		}
		return -1
	}
	c := cmp.Compare(a, b)
	if p.desc {
		c = -c
	}
	return c
}

func randPart(r *rand.Rand) *part {
	m := r.Intn(30)
	if r.Intn(8) == 0 {
		m = r.Intn(2)
	}
	p := &part{desc: r.Intn(2) == 0, nullF: r.Intn(2) == 0}
	distinct := 1 + r.Intn(6)
	for i := 0; i < m; i++ {
		p.keys = append(p.keys, int64(r.Intn(distinct)*(1+r.Intn(2))))
		p.kok = append(p.kok, r.Intn(5) != 0)
		p.vals = append(p.vals, int64(r.Intn(11)-5))
		p.vok = append(p.vok, r.Intn(4) != 0)
	}
	// sort the rows by key in the partition's order (values go along)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return p.cmpSort(p.keys[a], p.kok[a], p.keys[b], p.kok[b]) })
	q := &part{desc: p.desc, nullF: p.nullF}
	for _, i := range idx {
		k := p.keys[i]
		if !p.kok[i] {
			k = 0
		}
		q.keys, q.kok, q.vals, q.vok = append(q.keys, k), append(q.kok, p.kok[i]), append(q.vals, p.vals[i]), append(q.vok, p.vok[i])
	}
	return q
}

type bound struct {
	kind BoundKind
	off  int64
}

// inFrame is the naive frame test: whether row j is in row i's frame.
func (p *part) inFrame(rng bool, s, e bound, i, j int) bool {
	if !rng {
		lo := func(b bound) bool {
			switch b.kind {
			case UnboundedPreceding:
				return true
			case Preceding:
				return j >= i-int(b.off)
			case CurrentRow:
				return j >= i
			case Following:
				return j >= i+int(b.off)
			}
			return false
		}
		hi := func(b bound) bool {
			switch b.kind {
			case UnboundedFollowing:
				return true
			case Preceding:
				return j <= i-int(b.off)
			case CurrentRow:
				return j <= i
			case Following:
				return j <= i+int(b.off)
			}
			return false
		}
		return lo(s) && hi(e)
	}
	// RANGE: Spark's RangeBoundOrdering: the row's key against the bound,
	// key ± offset (NULL when the key is NULL), in the sort's order
	boundOf := func(b bound) (int64, bool) {
		d := b.off
		if b.kind == Preceding {
			d = -d
		}
		if b.kind == CurrentRow {
			d = 0
		}
		if p.desc {
			d = -d
		}
		return p.keys[i] + d, p.kok[i]
	}
	var okS, okE bool
	switch s.kind {
	case UnboundedPreceding:
		okS = true
	case UnboundedFollowing:
		okS = false
	default:
		v, vok := boundOf(s)
		okS = p.cmpSort(p.keys[j], p.kok[j], v, vok) >= 0
	}
	switch e.kind {
	case UnboundedFollowing:
		okE = true
	case UnboundedPreceding:
		okE = false
	default:
		v, vok := boundOf(e)
		okE = p.cmpSort(p.keys[j], p.kok[j], v, vok) <= 0
	}
	return okS && okE
}

func (p *part) peers(b *Buf) []int32 {
	m := len(p.keys)
	return b.Peers(0, m, func(i int) bool {
		return p.cmpSort(p.keys[i], p.kok[i], p.keys[i-1], p.kok[i-1]) == 0
	})
}

var bounds = []bound{{UnboundedPreceding, 0}, {Preceding, 0}, {Preceding, 1}, {Preceding, 3}, {CurrentRow, 0},
	{Following, 0}, {Following, 2}, {Following, 5}, {UnboundedFollowing, 0}}

func TestFramesAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var b Buf
	for iter := 0; iter < 400; iter++ {
		p := randPart(r)
		m := len(p.keys)
		peers := p.peers(&b)
		for _, rng := range []bool{false, true} {
			for _, s := range bounds {
				for _, e := range bounds {
					f := &b.Frames
					switch {
					case !rng:
						f.RowsFrames(m, s.kind, s.off, e.kind, e.off)
					case (s.kind == Preceding || s.kind == Following) || (e.kind == Preceding || e.kind == Following):
						RangeFrames(f, p.keys, p.kok, p.desc, peers, s.kind, s.off, e.kind, e.off)
					default:
						f.PeerFrames(peers, s.kind, e.kind)
					}
					name := fmt.Sprintf("iter %d rng=%v %v..%v keys=%v ok=%v desc=%v nullsFirst=%v", iter, rng, s, e, p.keys, p.kok, p.desc, p.nullF)
					checkFrame(t, name, p, rng, s, e, f)
					checkAggs(t, name, p, rng, s, e, f, &b)
				}
			}
		}
	}
}

func checkFrame(t *testing.T, name string, p *part, rng bool, s, e bound, f *Frames) {
	t.Helper()
	m := len(p.keys)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			want := p.inFrame(rng, s, e, i, j)
			got := int32(j) >= f.Start[i] && int32(j) < f.End[i]
			if want != got {
				t.Fatalf("%s: row %d frame [%d,%d): row %d in it is %v, want %v", name, i, f.Start[i], f.End[i], j, got, want)
			}
		}
	}
}

func checkAggs(t *testing.T, name string, p *part, rng bool, s, e bound, f *Frames, b *Buf) {
	t.Helper()
	m := len(p.keys)
	cnt, cntStar := make([]int64, m), make([]int64, m)
	sum, sumOK := make([]int64, m), make([]bool, m)
	fsum, fsumOK := make([]float64, m), make([]bool, m)
	favg, favgOK := make([]float64, m), make([]bool, m)
	mn, mx := make([]int32, m), make([]int32, m)
	first, last, nth2, firstIN, lastIN, nth2IN := make([]int32, m), make([]int32, m), make([]int32, m), make([]int32, m), make([]int32, m), make([]int32, m)
	fv := make([]float64, m)
	for i, v := range p.vals {
		fv[i] = float64(v)
	}
	Count(cnt, p.vok, f)
	Count(cntStar, nil, f)
	if err := SumInt64(sum, sumOK, p.vals, p.vok, f); err != nil {
		t.Fatal(err)
	}
	SumFloat64(fsum, fsumOK, fv, p.vok, f, false)
	SumFloat64(favg, favgOK, fv, p.vok, f, true)
	less := func(i, j int32) bool { return p.vals[i] < p.vals[j] }
	b.MinMax(mn, p.vok, less, false, f)
	b.MinMax(mx, p.vok, less, true, f)
	b.First(first, nil, f)
	b.Last(last, nil, f)
	b.Nth(nth2, nil, f, 2)
	b.First(firstIN, p.vok, f)
	b.Last(lastIN, p.vok, f)
	b.Nth(nth2IN, p.vok, f, 2)
	for i := 0; i < m; i++ {
		var wc, wcs, ws int64
		var wmn, wmx int64
		var frame, frameNN []int32
		for j := 0; j < m; j++ {
			if !p.inFrame(rng, s, e, i, j) {
				continue
			}
			frame = append(frame, int32(j))
			wcs++
			if p.vok[j] {
				frameNN = append(frameNN, int32(j))
				if wc == 0 || p.vals[j] < wmn {
					wmn = p.vals[j]
				}
				if wc == 0 || p.vals[j] > wmx {
					wmx = p.vals[j]
				}
				wc++
				ws += p.vals[j]
			}
		}
		at := func(s []int32, k int) int32 {
			if k < 0 || k >= len(s) {
				return -1
			}
			return s[k]
		}
		checks := []struct {
			what      string
			got, want any
		}{
			{"count", cnt[i], wc},
			{"count(*)", cntStar[i], wcs},
			{"sum ok", sumOK[i], wc > 0},
			{"sum", sum[i] * b2i(sumOK[i]), ws},
			{"float sum ok", fsumOK[i], wc > 0},
			{"float sum", fsum[i], float64(ws)},
			{"avg ok", favgOK[i], wc > 0},
			{"avg", favg[i], avg(ws, wc)},
			{"min", val(p, mn[i]), opt(wmn, wc > 0)},
			{"max", val(p, mx[i]), opt(wmx, wc > 0)},
			{"first_value", first[i], at(frame, 0)},
			{"last_value", last[i], at(frame, len(frame)-1)},
			{"nth_value 2", nth2[i], at(frame, 1)},
			{"first_value ignore nulls", firstIN[i], at(frameNN, 0)},
			{"last_value ignore nulls", lastIN[i], at(frameNN, len(frameNN)-1)},
			{"nth_value 2 ignore nulls", nth2IN[i], at(frameNN, 1)},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Fatalf("%s vals=%v ok=%v: row %d (frame [%d,%d)): %s = %v, want %v", name, p.vals, p.vok, i, f.Start[i], f.End[i], c.what, c.got, c.want)
			}
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func avg(s, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(s) / float64(n)
}

func val(p *part, pos int32) string {
	if pos < 0 {
		return "NULL"
	}
	if !p.vok[pos] {
		return "NULL value picked"
	}
	return fmt.Sprint(p.vals[pos])
}

func opt(v int64, ok bool) string {
	if !ok {
		return "NULL"
	}
	return fmt.Sprint(v)
}

func TestRankingAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var b Buf
	for iter := 0; iter < 2000; iter++ {
		p := randPart(r)
		m := len(p.keys)
		peers := p.peers(&b)
		rn, rk, dr := make([]int32, m), make([]int32, m), make([]int32, m)
		pr, cd := make([]float64, m), make([]float64, m)
		RowNumber(rn)
		Rank(rk, peers)
		DenseRank(dr, peers)
		PercentRank(pr, peers)
		CumeDist(cd, peers)
		for i := 0; i < m; i++ {
			var before, upto int
			distinct := map[string]bool{}
			for j := 0; j < m; j++ {
				c := p.cmpSort(p.keys[j], p.kok[j], p.keys[i], p.kok[i])
				if c < 0 {
					before++
					distinct[fmt.Sprint(p.keys[j], p.kok[j])] = true
				}
				if c <= 0 {
					upto++
				}
			}
			wpr := 0.0
			if m > 1 {
				wpr = float64(before) / float64(m-1)
			}
			if rn[i] != int32(i+1) || rk[i] != int32(before+1) || dr[i] != int32(len(distinct)+1) || pr[i] != wpr || cd[i] != float64(upto)/float64(m) {
				t.Fatalf("iter %d keys %v ok %v row %d: row_number %d rank %d dense_rank %d percent_rank %v cume_dist %v; want %d %d %d %v %v",
					iter, p.keys, p.kok, i, rn[i], rk[i], dr[i], pr[i], cd[i], i+1, before+1, len(distinct)+1, wpr, float64(upto)/float64(m))
			}
		}
		// ntile: Spark's NTile walks the rows keeping a bucket and the row
		// count at which it ends, a bucket of m/n rows plus one while
		// padded buckets remain
		for n := int64(1); n <= 12; n++ {
			got := make([]int32, m)
			NTile(got, n)
			size, pad := int64(m)/n, int64(m)%n
			bucket, threshold := int64(0), int64(0)
			for i := int64(0); i < int64(m); i++ {
				if i >= threshold {
					bucket++
					threshold += size
					if bucket <= pad {
						threshold++
					}
				}
				if got[i] != int32(bucket) {
					t.Fatalf("ntile(%d) of %d rows: row %d in bucket %d, want %d", n, m, i, got[i], bucket)
				}
			}
		}
		// lag and lead, with and without ignore nulls
		for k := int64(-4); k <= 4; k++ {
			for _, ign := range []bool{false, true} {
				got := make([]int32, m)
				var ok []bool
				if ign {
					ok = p.vok
				}
				b.Offset(got, k, ok)
				for i := 0; i < m; i++ {
					want := int32(-1)
					if !ign || k == 0 {
						if j := i + int(k); j >= 0 && j < m {
							want = int32(j)
						}
					} else {
						step, left := 1, k
						if k < 0 {
							step, left = -1, -k
						}
						for j := i + step; j >= 0 && j < m; j += step {
							if p.vok[j] {
								left--
								if left == 0 {
									want = int32(j)
									break
								}
							}
						}
					}
					if got[i] != want {
						t.Fatalf("offset %d ignore nulls %v, vals ok %v: row %d -> %d, want %d", k, ign, p.vok, i, got[i], want)
					}
				}
			}
		}
	}
}

// TestWalkThreads: every partition is visited once, on any thread count,
// and the first failing partition's error is the one returned.
func TestWalkThreads(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	n := 50000
	keys := make([]int, n)
	for i := range keys {
		keys[i] = r.Intn(300)
	}
	slices.Sort(keys)
	bounds := Split(n, func(i int) bool { return keys[i] == keys[i-1] })
	for _, threads := range []int{1, 2, 3, 8, 1000} {
		seen := make([]int32, n)
		err := Walk(bounds, threads, func(w, lo, hi int) error {
			for i := lo; i < hi; i++ {
				seen[i]++
				if keys[i] != keys[lo] {
					return fmt.Errorf("partition [%d,%d) mixes keys", lo, hi)
				}
			}
			if lo > 0 && keys[lo-1] == keys[lo] || hi < n && keys[hi] == keys[lo] {
				return fmt.Errorf("partition [%d,%d) is cut", lo, hi)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("threads %d: row %d visited %d times", threads, i, c)
			}
		}
		err = Walk(bounds, threads, func(w, lo, hi int) error {
			if keys[lo] >= 100 {
				return fmt.Errorf("key %d", keys[lo])
			}
			return nil
		})
		if err == nil || err.Error() != "key 100" {
			t.Fatalf("threads %d: error %v, want the first failing partition's (key 100)", threads, err)
		}
	}
}

// TestRangeFramesFloatAndOverflow: RANGE offsets over DOUBLE keys, and
// integer bounds past BIGINT's range saturate rather than wrap.
func TestRangeFramesFloatAndOverflow(t *testing.T) {
	var f Frames
	keys := []float64{1, 1.5, 2, 4}
	peers := []int32{0, 1, 2, 3, 4}
	RangeFrames(&f, keys, nil, false, peers, Preceding, 0.5, CurrentRow, 0)
	if want := []int32{0, 0, 1, 3}; !slices.Equal(f.Start, want) {
		t.Errorf("float range starts %v, want %v", f.Start, want)
	}
	big := []int64{-1 << 62, 0, 1<<63 - 2}
	RangeFrames(&f, big, nil, false, []int32{0, 1, 2, 3}, Preceding, 1<<62+5, Following, 10)
	if want := []int32{0, 0, 2}; !slices.Equal(f.Start, want) {
		t.Errorf("saturated starts %v, want %v", f.Start, want)
	}
	if want := []int32{1, 2, 3}; !slices.Equal(f.End, want) {
		t.Errorf("saturated ends %v, want %v", f.End, want)
	}
}

func TestSumOverflow(t *testing.T) {
	var f Frames
	f.RowsFrames(3, UnboundedPreceding, 0, CurrentRow, 0)
	out, ok := make([]int64, 3), make([]bool, 3)
	if err := SumInt64(out, ok, []int64{1 << 62, 1 << 62, 0}, nil, &f); err == nil {
		t.Fatal("a running sum past BIGINT gave no error")
	}
}

// TestSortBuckets: Sort orders each partition's rows by the comparator,
// ties in input order, keeps every partition within one bucket, and gives
// the same order at any thread count.
func TestSortBuckets(t *testing.T) {
	type row struct{ p, o int64 }
	r := rand.New(rand.NewSource(4))
	rows := make([]row, 100000)
	for i := range rows {
		rows[i] = row{int64(r.Intn(5000)), int64(r.Intn(20))}
	}
	hash := func(x *row) uint64 { return Mix(0, uint64(x.p)) }
	less := func(a, b *row) int {
		if c := cmp.Compare(a.p, b.p); c != 0 {
			return c
		}
		return cmp.Compare(a.o, b.o)
	}
	want := Sort(rows, hash, less, 1)
	for _, th := range []int{2, 3, 8} {
		if got := Sort(rows, hash, less, th); !slices.Equal(got, want) {
			t.Fatalf("threads %d: a different order", th)
		}
	}
	bounds := Split(len(want), func(i int) bool { return rows[want[i]].p == rows[want[i-1]].p })
	seen := map[int64]bool{}
	for k := 0; k+1 < len(bounds); k++ {
		lo, hi := bounds[k], bounds[k+1]
		p := rows[want[lo]].p
		if seen[p] {
			t.Fatalf("partition %d is split", p)
		}
		seen[p] = true
		for i := lo + 1; i < hi; i++ {
			a, b := want[i-1], want[i]
			if c := less(&rows[a], &rows[b]); c > 0 || c == 0 && a > b {
				t.Fatalf("rows %d, %d out of order", a, b)
			}
		}
	}
	if len(seen) != 5000 {
		t.Fatalf("%d partitions, want 5000", len(seen))
	}
	if got := Sort(rows, nil, less, 2); !slices.IsSortedFunc(got, func(a, b int32) int {
		if c := less(&rows[a], &rows[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}) {
		t.Fatal("one bucket: not sorted")
	}
}

// TestMoments checks a moment over a growing and a sliding frame against
// the same values added to a fresh accumulator per frame (Spark's
// stddev_samp over (order by i rows between 1 preceding and current row)
// of 1, 2, 4, NULL: NULL, 0.7071067811865476, 1.4142135623730951,
// NULL).
func TestMoments(t *testing.T) {
	vals := []float64{1, 2, 4, 0}
	ok := []bool{true, true, true, false}
	f := &Frames{Start: []int32{0, 0, 1, 2}, End: []int32{1, 2, 3, 4}}
	out, outOK := make([]float64, 4), make([]bool, 4)
	Moments(out, outOK, vals, ok, f, (*sqlfn.Moments).StddevSamp)
	want := []float64{0, 0.7071067811865476, 1.4142135623730951, 0}
	wantOK := []bool{false, true, true, false}
	for i := range out {
		if outOK[i] != wantOK[i] || outOK[i] && math.Abs(out[i]-want[i]) > 1e-15 {
			t.Errorf("row %d: %v, %v; want %v, %v", i, out[i], outOK[i], want[i], wantOK[i])
		}
	}
}

// TestPercentile checks the median over a sliding frame (Spark's
// percentile(x, 0.5) over (order by i rows between 1 preceding and 1
// following) of 4, 1, NULL, 3: 2.5, 2.5, 2.0, 3.0).
func TestPercentile(t *testing.T) {
	vals := []float64{4, 1, 0, 3}
	ok := []bool{true, true, false, true}
	f := &Frames{Start: []int32{0, 0, 1, 2}, End: []int32{2, 3, 4, 4}}
	out, outOK := make([]float64, 4), make([]bool, 4)
	Percentile(out, outOK, vals, ok, f, 0.5)
	want := []float64{2.5, 2.5, 2, 3}
	for i := range out {
		if !outOK[i] || out[i] != want[i] {
			t.Errorf("row %d: %v, %v; want %v", i, out[i], outOK[i], want[i])
		}
	}
}

// TestCoMoments checks regr_slope(y, x) over a growing frame (Spark's
// regr_slope of (y, x) = (1, 2), (2, 4), (4, 7) is 0.605263157894737
// over all three; NULL over one), and corr's DIVIDE_BY_ZERO over a frame
// whose x is constant.
func TestCoMoments(t *testing.T) {
	ys, xs := []float64{1, 2, 4}, []float64{2, 4, 7}
	f := &Frames{Start: []int32{0, 0, 0}, End: []int32{1, 2, 3}}
	out, outOK := make([]float64, 3), make([]bool, 3)
	slope := func(c *sqlfn.CoMoments) (float64, bool, *sqlfn.Error) {
		v, ok := c.RegrSlope()
		return v, ok, nil
	}
	if err := CoMoments(out, outOK, ys, xs, nil, f, true, slope); err != nil {
		t.Fatal(err)
	}
	if outOK[0] || !outOK[2] || math.Abs(out[2]-0.605263157894737) > 1e-15 {
		t.Errorf("regr_slope: %v %v", out, outOK)
	}
	err := CoMoments(out, outOK, []float64{1, 1, 1}, ys, nil, f, false, (*sqlfn.CoMoments).Corr)
	if err == nil || err.Class != sqlfn.ClassDivideByZero {
		t.Errorf("corr of a constant x: %v; want DIVIDE_BY_ZERO", err)
	}
}

// TestSortKeyedAsSort: SortKeyed gives exactly Sort's order, at 1 and 2
// threads, with a key of one word or two (the partition key, then a
// descending order key with NULLs last, a NULL the greatest word so that
// it ties with the greatest value and the comparator orders them), with
// many ties left to the comparator and to the input order.
func TestSortKeyedAsSort(t *testing.T) {
	type row struct {
		p, o int64
		ook  bool
		s    string
	}
	r := rand.New(rand.NewSource(5))
	rows := make([]row, 60000)
	for i := range rows {
		rows[i] = row{p: int64(r.Intn(3000)) - 1500, o: int64(r.Intn(12)) - 6, ook: r.Intn(7) != 0, s: string(rune('a' + r.Intn(3)))}
		switch r.Intn(10) {
		case 0:
			rows[i].o = math.MinInt64 // descending: the greatest word, a NULL's
		case 1:
			rows[i].p = math.MaxInt64
		}
	}
	hash := func(x *row) uint64 { return Mix(0, uint64(x.p)) }
	less := func(a, b *row) int {
		if c := cmp.Compare(a.p, b.p); c != 0 {
			return c
		}
		if a.ook != b.ook { // NULLS LAST
			if a.ook {
				return -1
			}
			return 1
		}
		if a.ook {
			if c := cmp.Compare(a.o, b.o); c != 0 {
				return -c
			}
		}
		return cmp.Compare(a.s, b.s)
	}
	one := func(x *row) (uint64, uint64) { return uint64(x.p) ^ 1<<63, 0 }
	two := func(x *row) (uint64, uint64) {
		k2 := uint64(math.MaxUint64)
		if x.ook {
			k2 = ^(uint64(x.o) ^ 1<<63)
		}
		return uint64(x.p) ^ 1<<63, k2
	}
	for _, h := range []func(*row) uint64{hash, nil} {
		want := Sort(rows, h, less, 1)
		for _, key := range []func(*row) (uint64, uint64){one, two} {
			for _, th := range []int{1, 2} {
				if got := SortKeyed(rows, h, key, less, th); !slices.Equal(got, want) {
					t.Fatalf("hash %v, threads %d: SortKeyed's order differs from Sort's", h != nil, th)
				}
			}
		}
	}
}
