package nexmark

// DuckDBQueries are the batch equivalents of examples/nexmark's datasets in
// DuckDB SQL, over views named person, auction and bid of the generated
// files (timestamps without a zone, read as UTC), in the example's order.
// They are spelled independently of thund: the conformance module checks the
// example against them, and bench runs them beside it.
var DuckDBQueries = []struct{ Name, SQL string }{
	{"q0", `SELECT auction, bidder, price, date_time, extra FROM bid`},
	{"q1", `SELECT auction, bidder, CAST(price AS DECIMAL(20, 0)) * 0.908 AS price, date_time, extra FROM bid`},
	{"q2", `SELECT auction, price FROM bid WHERE auction % 123 = 0`},
	{"q3", `SELECT p.name, p.city, p.state, a.id FROM auction a JOIN person p ON a.seller = p.id
		WHERE a.category = 10 AND p.state IN ('OR', 'ID', 'CA')`},
	{"q5", duckQ5},
	{"q5_hot", `WITH c AS (` + duckQ5 + `)
		SELECT c.auction, c.num, c.window_start, c.window_end FROM c
		JOIN (SELECT window_start, window_end, max(num) AS maxn FROM c GROUP BY window_start, window_end) m
		ON c.window_start = m.window_start AND c.window_end = m.window_end AND c.num >= m.maxn`},
	{"q7_max", duckQ7Max},
	{"q7", `SELECT b.auction, b.price, b.bidder, b.date_time, b.extra FROM bid b JOIN (` + duckQ7Max + `) m
		ON b.price = m.maxprice AND b.date_time BETWEEN m.window_end - INTERVAL 10 SECOND AND m.window_end`},
	// the same 10s tumbling window: same window number, in epoch ms
	{"q8", `SELECT p.id, p.name, make_timestamp(epoch_ms(p.date_time) // 10000 * 10000000) AS window_start, a.id AS auction
		FROM person p JOIN auction a ON p.id = a.seller AND epoch_ms(p.date_time) // 10000 = epoch_ms(a.date_time) // 10000`},
}

// DuckDBQuery is DuckDBQueries' SQL for the dataset name ("" if none).
func DuckDBQuery(name string) string {
	for _, q := range DuckDBQueries {
		if q.Name == name {
			return q.SQL
		}
	}
	return ""
}

// duckQ5: each bid counts in the five 10s windows, sliding by 2s and aligned
// to the epoch, that hold it: starts b-8s, ..., b where b is its time
// rounded down to 2s.
const duckQ5 = `SELECT auction, make_timestamp(s * 1000) AS window_start, make_timestamp((s + 10000) * 1000) AS window_end, count(*) AS num
	FROM (SELECT auction, unnest(range(b - 8000, b + 1, 2000)) AS s
	      FROM (SELECT auction, epoch_ms(date_time) - epoch_ms(date_time) % 2000 AS b FROM bid))
	GROUP BY auction, s`

// duckQ7Max: the 10s tumbling windows' maximum price.
const duckQ7Max = `SELECT make_timestamp(s * 1000) AS window_start, make_timestamp((s + 10000) * 1000) AS window_end, max(price) AS maxprice
	FROM (SELECT price, epoch_ms(date_time) - epoch_ms(date_time) % 10000 AS s FROM bid) GROUP BY s`
