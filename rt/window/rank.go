package window

// The ranking functions of one partition of m = len(out) rows, whose peer
// groups are peers (Buf.Peers).

// RowNumber is row_number(): 1, 2, ... in sorted order.
func RowNumber(out []int32) {
	for i := range out {
		out[i] = int32(i + 1)
	}
}

// Rank is rank(): one more than the number of rows before the row's peer
// group.
func Rank(out []int32, peers []int32) {
	for g := 0; g+1 < len(peers); g++ {
		for i := peers[g]; i < peers[g+1]; i++ {
			out[i] = peers[g] + 1
		}
	}
}

// DenseRank is dense_rank(): the number of the row's peer group, from 1.
func DenseRank(out []int32, peers []int32) {
	for g := 0; g+1 < len(peers); g++ {
		for i := peers[g]; i < peers[g+1]; i++ {
			out[i] = int32(g + 1)
		}
	}
}

// PercentRank is percent_rank(): (rank - 1) / (m - 1), 0 in a partition of
// one row.
func PercentRank(out []float64, peers []int32) {
	m := len(out)
	for g := 0; g+1 < len(peers); g++ {
		v := 0.0
		if m > 1 {
			v = float64(peers[g]) / float64(m-1)
		}
		for i := peers[g]; i < peers[g+1]; i++ {
			out[i] = v
		}
	}
}

// CumeDist is cume_dist(): the fraction of the partition's rows that sort
// before the row or are its peers.
func CumeDist(out []float64, peers []int32) {
	m := len(out)
	for g := 0; g+1 < len(peers); g++ {
		v := float64(peers[g+1]) / float64(m)
		for i := peers[g]; i < peers[g+1]; i++ {
			out[i] = v
		}
	}
}

// NTile is ntile(n) for n > 0: the rows in n buckets numbered from 1, as
// Spark sizes them: m / n rows each, and one more in each of the first
// m % n buckets (a partition of fewer than n rows has one row per bucket).
func NTile(out []int32, n int64) {
	m := int64(len(out))
	size, pad := m/n, m%n
	big := (size + 1) * pad // the rows of the padded buckets
	for r := int64(0); r < m; r++ {
		if r < big {
			out[r] = int32(r/(size+1) + 1)
		} else {
			out[r] = int32(pad + (r-big)/size + 1)
		}
	}
}

// Offset is lag and lead: for each row i of the partition, the position of
// the row k rows after it (lead: k > 0; lag: k < 0; k = 0 is the row
// itself), or -1 when there is none (the result is the default). With
// ignore nulls (ok non-nil: ok[i] is false for a NULL argument) the rows
// counted are those whose argument is not NULL.
func (b *Buf) Offset(out []int32, k int64, ok []bool) {
	m := int64(len(out))
	if ok == nil || k == 0 {
		for i := int64(0); i < m; i++ {
			j := i + k
			if j < 0 || j >= m {
				j = -1
			}
			out[i] = int32(j)
		}
		return
	}
	nn, cnt := b.nonNull(ok)
	for i := int64(0); i < m; i++ {
		var idx int64
		if k < 0 {
			idx = int64(cnt[i]) + k // the -k-th non-NULL row before i
		} else {
			idx = int64(cnt[i+1]) + k - 1 // the k-th after i
		}
		if idx < 0 || idx >= int64(len(nn)) {
			out[i] = -1
		} else {
			out[i] = nn[idx]
		}
	}
}
