package sparkemit

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// sparkType is the Spark SQL spelling (ir.Type.SQL) of the type t is
// stored as in Spark. Unsigned integers widen to the next signed type
// (uint64 to decimal(20,0)), as Spark reads unsigned Parquet columns;
// nanoseconds truncate to Spark's microseconds, a zoned timestamp is Spark's
// TIMESTAMP and a zoneless one TIMESTAMP_NTZ, and a duration is an INTERVAL
// DAY TO SECOND; the capability pass names each conversion in the report.
// Nested types widen part by part.
func sparkType(t ir.Type) (string, bool) {
	s := sparkWidened(t).SQL() // nested.go
	return s, s != ""
}

// sparkUnsigned is the Spark type each unsigned integer widens to.
var sparkUnsigned = map[ir.TypeKind]ir.Type{
	ir.TUint8: ir.Int16, ir.TUint16: ir.Int32, ir.TUint32: ir.Int64, ir.TUint64: ir.Decimal(20, 0),
}

// columnsDDL is a DDL schema string: "a BIGINT NOT NULL, b STRING COMMENT '...'".
func (e *emitter) columnsDDL(d *ir.Dataset, cols []*ir.Column) string {
	parts := make([]string, 0, len(cols))
	for _, c := range cols {
		st, ok := sparkType(c.Type)
		if !ok {
			e.refuse(c.Pos, "", d.Name, fmt.Sprintf("column %s of type %s", c.Name, c.Type), "Spark has no such type")
			continue
		}
		s := quoteIdent(c.Name) + " " + st
		if c.NotNull {
			s += " NOT NULL"
		}
		if c.Comment != "" {
			s += " COMMENT " + sqlString(c.Comment)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// quoteIdent back-quotes an identifier unless it is a plain one.
func quoteIdent(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// sqlString is a Spark SQL string literal.
func sqlString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(s) + "'"
}

// intervalText spells a duration for withWatermark and window(): Spark
// parses "10 seconds", "1500 milliseconds" or "250 microseconds".
func intervalText(d ir.Duration) string {
	ns := int64(d)
	switch {
	case ns%1e9 == 0:
		return fmt.Sprintf("%d seconds", ns/1e9)
	case ns%1e6 == 0:
		return fmt.Sprintf("%d milliseconds", ns/1e6)
	}
	return fmt.Sprintf("%d microseconds", ns/1e3)
}
