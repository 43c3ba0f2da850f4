package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// peopleRows is the size of the W4 dimension.
const peopleRows = 100_000

// auctionRows is the size of W6's build side: a quarter of the bids.
func auctionRows(bids int64) int64 { return max(bids/4, 1000) }

// defaultMemLimit is W6's memory limit: about 32 bytes per auction row,
// well under what its build side takes in either engine from 10M bids on,
// but at least 24MiB, below which DuckDB cannot run the query at all.
func defaultMemLimit(bids int64) string {
	mib := max(auctionRows(bids)*32>>20, 24)
	return fmt.Sprintf("%dMiB", mib)
}

// dataVersion names the layout generate writes; data under -dir written
// with another layout is generated again.
const dataVersion = "2: variant columns, people2, people20"

// generate writes the input under root/data once (a later run with the same
// row count reuses it). The data is deterministic: every column is a hash of
// the row number.
//
//   - bids: auction (about 100K distinct values), bidder (0..119999, so a
//     sixth of the bids find no person), price (1..10,000,000), channel (4
//     values), url, date_time (1 ms apart, UTC), extra; and the variants'
//     columns: auction_s (the auction as a string), auction_d (as a date),
//     auction_n, bidder_n and price_n (the same with 2% NULLs each);
//   - people: id 0..99999, name, city, state (50 values), and the same 50
//     groups as state_id (INTEGER), joined (a DATE) and state_id_n (2%
//     NULLs);
//   - people2: id and state_id (a dimension of two columns);
//   - people20: id, state_id and 18 more columns (of twenty);
//   - auctions: id 0..rows/4-1, item_name, category (20 values), seller.
//
// DuckDB writes the files (Snappy, its default row-group size of 122,880
// rows), so both engines read files neither of them is tuned for; every
// column is OPTIONAL in them, as DuckDB writes it, NULLs or not.
func generate(root string, rows int64) error {
	if b, err := os.ReadFile(filepath.Join(root, "data", ".complete")); err == nil && string(b) == dataVersion {
		return nil
	}
	return inWorker(workerSpec{Do: "generate", Root: root, Rows: rows})
}

// generateHere is generate, in a worker.
func generateHere(root string, rows int64) error {
	data := filepath.Join(root, "data")
	done := filepath.Join(data, ".complete")
	os.RemoveAll(data)
	for _, d := range []string{"bids", "people", "people2", "people20", "auctions"} {
		if err := os.MkdirAll(filepath.Join(data, d), 0o755); err != nil {
			return err
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	var wide strings.Builder // people20's 18 more columns
	for k := range 18 {
		if k%2 == 0 {
			fmt.Fprintf(&wide, ", 'v%d ' || CAST(hash(i, %d) %% 10000 AS VARCHAR) AS s%d", k, 20+k, k)
		} else {
			fmt.Fprintf(&wide, ", CAST(hash(i, %d) %% 1000000 AS BIGINT) AS n%d", 20+k, k)
		}
	}
	stmts := []string{
		fmt.Sprintf(`COPY (SELECT * EXCLUDE (i),
			'a' || CAST(auction AS VARCHAR) AS auction_s,
			DATE '2000-01-01' + CAST(auction AS INTEGER) AS auction_d,
			CASE WHEN hash(i, 13) %% 50 = 0 THEN NULL ELSE auction END AS auction_n,
			CASE WHEN hash(i, 14) %% 50 = 0 THEN NULL ELSE bidder END AS bidder_n,
			CASE WHEN hash(i, 15) %% 50 = 0 THEN NULL ELSE price END AS price_n
			FROM (SELECT i,
			CAST(hash(i, 1) %% 100000 AS BIGINT) AS auction,
			CAST(hash(i, 2) %% 120000 AS BIGINT) AS bidder,
			CAST(1 + hash(i, 3) %% 10000000 AS BIGINT) AS price,
			(['apple', 'google', 'facebook', 'baidu'])[1 + CAST(hash(i, 4) %% 4 AS INTEGER)] AS channel,
			'https://www.nexmark.com/item.htm?query=' || CAST(hash(i, 5) %% 1000000 AS VARCHAR) AS url,
			TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_milliseconds(i) AS date_time,
			repeat(chr(CAST(97 + hash(i, 6) %% 26 AS INTEGER)), CAST(hash(i, 7) %% 16 AS INTEGER)) AS extra
			FROM range(%d) t(i))) TO '%s' (FORMAT parquet, COMPRESSION snappy)`, rows, filepath.Join(data, "bids", "bids.parquet")),
		fmt.Sprintf(`COPY (SELECT
			CAST(i AS BIGINT) AS id,
			'person ' || CAST(i AS VARCHAR) AS name,
			'city ' || CAST(hash(i, 8) %% 1000 AS VARCHAR) AS city,
			'S' || CAST(hash(i, 9) %% 50 AS VARCHAR) AS state,
			CAST(hash(i, 9) %% 50 AS INTEGER) AS state_id,
			DATE '2020-01-01' + CAST(hash(i, 9) %% 50 AS INTEGER) AS joined,
			CASE WHEN hash(i, 16) %% 50 = 0 THEN NULL ELSE CAST(hash(i, 9) %% 50 AS INTEGER) END AS state_id_n
			FROM range(%d) t(i)) TO '%s' (FORMAT parquet, COMPRESSION snappy)`, peopleRows, filepath.Join(data, "people", "people.parquet")),
		fmt.Sprintf(`COPY (SELECT CAST(i AS BIGINT) AS id, CAST(hash(i, 9) %% 50 AS INTEGER) AS state_id
			FROM range(%d) t(i)) TO '%s' (FORMAT parquet, COMPRESSION snappy)`, peopleRows, filepath.Join(data, "people2", "people2.parquet")),
		fmt.Sprintf(`COPY (SELECT CAST(i AS BIGINT) AS id, CAST(hash(i, 9) %% 50 AS INTEGER) AS state_id%s
			FROM range(%d) t(i)) TO '%s' (FORMAT parquet, COMPRESSION snappy)`, wide.String(), peopleRows, filepath.Join(data, "people20", "people20.parquet")),
		fmt.Sprintf(`COPY (SELECT
			CAST(i AS BIGINT) AS id,
			'item ' || CAST(hash(i, 10) AS VARCHAR) AS item_name,
			'category ' || CAST(hash(i, 11) %% 20 AS VARCHAR) AS category,
			CAST(hash(i, 12) %% 100000 AS BIGINT) AS seller
			FROM range(%d) t(i)) TO '%s' (FORMAT parquet, COMPRESSION snappy)`, auctionRows(rows), filepath.Join(data, "auctions", "auctions.parquet")),
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%w\n%s", err, s)
		}
	}
	return os.WriteFile(done, []byte(dataVersion), 0o644)
}

// generateKeys writes gb50m's input under root/data/gb once per row
// count: rows rows of k (a 63-bit hash of the row number: distinct but for
// a chance collision, in no order) and v (0..999).
func generateKeys(root string, rows int64) error {
	if _, err := os.Stat(keysDone(root, rows)); err == nil {
		return nil
	}
	return inWorker(workerSpec{Do: "generate-keys", Root: root, Rows: rows})
}

// keysDone marks gb50m's input of rows rows complete.
func keysDone(root string, rows int64) string {
	return filepath.Join(root, "data", fmt.Sprintf(".complete-gb-%d", rows))
}

// generateKeysHere is generateKeys, in a worker.
func generateKeysHere(root string, rows int64) error {
	data := filepath.Join(root, "data")
	gb := filepath.Join(data, "gb")
	os.RemoveAll(gb)
	if matches, _ := filepath.Glob(filepath.Join(data, ".complete-gb-*")); len(matches) > 0 {
		for _, m := range matches {
			os.Remove(m)
		}
	}
	if err := os.MkdirAll(gb, 0o755); err != nil {
		return err
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	q := fmt.Sprintf(`COPY (SELECT CAST(hash(i, 13) >> 1 AS BIGINT) AS k, CAST(hash(i, 14) %% 1000 AS BIGINT) AS v
		FROM range(%d) t(i)) TO '%s' (FORMAT parquet, COMPRESSION snappy)`, rows, filepath.Join(data, "gb", "gb.parquet"))
	if _, err := db.ExecContext(context.Background(), q); err != nil {
		return fmt.Errorf("%w\n%s", err, q)
	}
	return os.WriteFile(keysDone(root, rows), nil, 0o644)
}
