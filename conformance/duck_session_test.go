package conformance

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// duckSession is one DuckDB connection with the sources loaded as tables
// and the helpers the printer uses.
type duckSession struct {
	db   *sql.DB
	conn *sql.Conn
}

// sparkMacros spell Spark semantics the printer uses more than once.
var sparkMacros = []string{
	// '/' on DOUBLE: DIVIDE_BY_ZERO (ANSI), NULL when either side is NULL
	`CREATE MACRO spark_fdiv(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL
		WHEN b = 0 THEN error('DIVIDE_BY_ZERO') ELSE a / b END`,
	// '%' on integers: REMAINDER_BY_ZERO; MinValue % -1 is 0 in Java
	`CREATE MACRO spark_imod(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL
		WHEN b = 0 THEN error('REMAINDER_BY_ZERO') WHEN b = -1 THEN 0 ELSE a % b END`,
	// '%' on decimals and doubles
	`CREATE MACRO spark_mod(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL
		WHEN b = 0 THEN error('REMAINDER_BY_ZERO') ELSE a % b END`,
	// n / d on HUGEINT rounded HALF_UP (away from zero on a tie)
	`CREATE MACRO spark_rdiv(n, d) AS CASE WHEN n IS NULL OR d IS NULL THEN NULL
		WHEN d = 0 THEN error('DIVIDE_BY_ZERO')
		ELSE sign(n) * sign(d) * ((2 * abs(n) + abs(d)) // (2 * abs(d))) END`,
	// an unscaled HUGEINT r at scale s (p = 10^s) as decimal text
	`CREATE MACRO spark_dec_text(r, p, s) AS CASE WHEN r IS NULL THEN NULL ELSE
		(CASE WHEN r < 0 THEN '-' ELSE '' END) || CAST(abs(r) // p AS VARCHAR) ||
		(CASE WHEN s > 0 THEN '.' || lpad(CAST(abs(r) % p AS VARCHAR), s, '0') ELSE '' END) END`,
	// Java's long division, truncated toward zero
	`CREATE MACRO spark_quot(a, b) AS sign(a) * sign(b) * (abs(a) // abs(b))`,
	// UTF8String.trimAll: ASCII controls, space and DEL
	`CREATE MACRO spark_trim_all(x) AS regexp_replace(x, '^[\x00-\x20\x7f]+|[\x00-\x20\x7f]+$', '', 'g')`,
	// java.lang.String.trim: chars <= ' '
	`CREATE MACRO spark_java_trim(x) AS regexp_replace(x, '^[\x00-\x20]+|[\x00-\x20]+$', '', 'g')`,
	// UTF8String.substringSQL(pos, len) on characters
	`CREATE MACRO spark_substr_from(s, st, len) AS CASE WHEN greatest(st, 0) >= st + len THEN ''
		ELSE substring(s, greatest(st, 0) + 1, st + len - greatest(st, 0)) END`,
	`CREATE MACRO spark_substr(s, pos, len) AS CASE WHEN s IS NULL OR pos IS NULL OR len IS NULL THEN NULL
		ELSE spark_substr_from(s, CASE WHEN pos > 0 THEN CAST(pos AS BIGINT) - 1
			WHEN pos < 0 THEN length(s) + pos ELSE CAST(0 AS BIGINT) END, CAST(len AS BIGINT)) END`,
}

// javaDouble is Java's Double.toString (JDK 19+, shortest digits that
// round-trip): plain for 1e-3 <= |v| < 1e7 with at least one fraction
// digit, else d.dddE±n.
func javaDouble(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	// the shortest digits that round-trip, but at least two: when one
	// digit suffices, Java takes the two-digit decimal closest to v
	// (Double.MIN_VALUE prints 4.9E-324, not 5.0E-324)
	digits := strconv.FormatFloat(v, 'e', -1, 64)
	if m, _, _ := strings.Cut(digits, "e"); !strings.Contains(m, ".") {
		digits = strconv.FormatFloat(v, 'e', 1, 64)
	}
	mant, exp, _ := strings.Cut(digits, "e")
	e, _ := strconv.Atoi(exp)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	ds := strings.Replace(mant, ".", "", 1) // d1 d2 ...
	var out string
	if a := math.Abs(v); a >= 1e-3 && a < 1e7 {
		// plain: the point goes after digit e (0-based) of ds
		switch {
		case e < 0:
			out = "0." + strings.Repeat("0", -e-1) + ds
		case len(ds) <= e+1:
			out = ds + strings.Repeat("0", e+1-len(ds)) + ".0"
		default:
			out = ds[:e+1] + "." + ds[e+1:]
		}
		out = trimFraction(out)
	} else {
		out = ds[:1] + "." + ds[1:] + "E" + strconv.Itoa(e)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// trimFraction drops trailing zeros of a fraction, keeping one digit.
func trimFraction(s string) string {
	i, f, ok := strings.Cut(s, ".")
	if !ok {
		return s + ".0"
	}
	f = strings.TrimRight(f, "0")
	if f == "" {
		f = "0"
	}
	return i + "." + f
}

type doubleStrUDF struct{}

func (doubleStrUDF) Config() duckdb.ScalarFuncConfig {
	d, _ := duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	v, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{d}, ResultTypeInfo: v}
}

func (doubleStrUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(vals []driver.Value) (any, error) {
		return javaDouble(vals[0].(float64)), nil
	}}
}

func openDuck(root string, u *passes.Unit) (*duckSession, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	s := &duckSession{db: db, conn: conn}
	stmts := append([]string{"SET TimeZone = 'UTC'", "SET threads = 2"}, sparkMacros...)
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			s.close()
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	if err := duckdb.RegisterScalarUDF(conn, "spark_double_str", doubleStrUDF{}); err != nil {
		s.close()
		return nil, err
	}
	for _, d := range u.Pipeline.Datasets {
		if d.Kind != ir.KindSource {
			continue
		}
		q, err := sourceSQL(root, d, u.Datasets[d])
		if err == nil {
			_, err = conn.ExecContext(ctx, q)
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("source %s: %w", d.Name, err)
		}
	}
	return s, nil
}

// sourceSQL loads a CSV source with the reader conventions Þund's CSV
// reader has: a header, NULL only as the empty unquoted field, no type
// inference.
func sourceSQL(root string, d *ir.Dataset, s passes.Schema) (string, error) {
	src := d.Source
	if src == nil || src.Format != ir.FormatCSV || src.Stdin || src.Unbounded {
		return "", fmt.Errorf("only bounded CSV sources are supported")
	}
	for _, o := range src.Options {
		if !(strings.EqualFold(o.Key, "header") && o.Value == "true") {
			return "", fmt.Errorf("reader option %s is not supported", o.Key)
		}
	}
	var paths, cols []string
	for _, p := range src.Paths {
		paths = append(paths, quoteString(filepath.Join(root, p)))
	}
	for _, f := range s.Visible() {
		cols = append(cols, quoteString(f.Name)+": "+quoteString(duckType(d.Pos, f.Type)))
	}
	return fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM read_csv([%s], header = true, delim = ',', quote = '\"', escape = '\"', "+
		"nullstr = '', allow_quoted_nulls = false, auto_detect = false, columns = {%s})",
		srcTable(d.Name), strings.Join(paths, ", "), strings.Join(cols, ", ")), nil
}

func (s *duckSession) close() {
	if s.conn != nil {
		s.conn.Close()
	}
	s.db.Close()
}

// query runs q and converts its rows to canonical values of the given
// (Spark) column types.
func (s *duckSession) query(q string, types []ir.Type) ([]row, error) {
	rows, err := s.conn.QueryContext(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if len(cols) != len(types) {
		return nil, fmt.Errorf("duckdb returned %d columns, want %d", len(cols), len(types))
	}
	var out []row
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		r := make(row, len(cols))
		for i, v := range vals {
			if r[i], err = fromDuck(v, types[i]); err != nil {
				return nil, fmt.Errorf("column %s: %w", cols[i], err)
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// scalar runs a query returning one integer.
func (s *duckSession) scalar(q string) (int64, error) {
	var n sql.NullInt64
	err := s.conn.QueryRowContext(context.Background(), q).Scan(&n)
	return n.Int64, err
}
