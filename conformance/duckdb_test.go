package conformance

import (
	"database/sql"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

func TestDuckDBOpens(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("select count(*) from range(10)").Scan(&n); err != nil || n != 10 {
		t.Fatalf("duckdb: %v %d", err, n)
	}
}
