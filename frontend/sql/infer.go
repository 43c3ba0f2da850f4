package sql

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/nordisk/thund/rt/format/pqread"

	"github.com/nordisk/thund/internal/glob"
	"github.com/nordisk/thund/ir"
)

// Compile-time schema inference for read_files(...) without a schema (the
// rules are in doc.go). Paths are read relative to the SQL file's folder.

// sampleRows is how many rows of a CSV or JSON-lines file inference reads,
// and sampleBytes how many bytes at most.
const (
	sampleRows  = 1000
	sampleBytes = 64 << 20
)

// inferColumns infers the columns of the first file a read matches.
func inferColumns(format ir.FileFormat, pattern, dir string, opts []ir.KV, infer bool) ([]*ir.Column, error) {
	if strings.Contains(pattern, "://") {
		return nil, fmt.Errorf("%s is not a local path", pattern)
	}
	name, err := firstFile(dir, pattern)
	if err != nil {
		return nil, err
	}
	switch format {
	case ir.FormatParquet:
		return parquetColumns(name)
	case ir.FormatArrow:
		return arrowColumns(name)
	case ir.FormatCSV:
		return csvColumns(name, opts, infer)
	default:
		return jsonColumns(name, infer)
	}
}

// firstFile returns the first data file, in name order, that pattern names
// under dir, by the rules the runtime reads the source by (internal/glob):
// the file itself, a glob's matches ("**" for any number of folders), or
// the files under a folder, skipping names that start with '.' or '_' (as
// Spark does) unless the pattern asks for them.
func firstFile(dir, pattern string) (string, error) {
	files, err := glob.Match(dir, pattern)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if fi, err := os.Stat(f.Path); err == nil && fi.Mode().IsRegular() {
			return f.Path, nil // not a device or a pipe
		}
	}
	p := filepath.FromSlash(pattern)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return "", fmt.Errorf("no file matches %s", filepath.ToSlash(p))
}

func parquetColumns(name string) ([]*ir.Column, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := file.NewParquetReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(name), err)
	}
	defer r.Close()
	// The runtime's own schema mapping (rt/format/pqread, as rt/iceberg's
	// for frontend/icetable), so that the columns inferred here are the
	// types the program's reader gives.
	sch, err := pqread.FromParquet(r.MetaData().Schema, &pqread.ArrowReadProperties{}, r.MetaData().KeyValueMetadata())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(name), err)
	}
	return arrowSchemaColumns(sch, filepath.Base(name))
}

func arrowColumns(name string) ([]*ir.Column, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fr, err := ipc.NewFileReader(f); err == nil {
		defer fr.Close()
		return arrowSchemaColumns(fr.Schema(), filepath.Base(name))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	sr, err := ipc.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s is neither an Arrow IPC file nor stream: %v", filepath.Base(name), err)
	}
	defer sr.Release()
	return arrowSchemaColumns(sr.Schema(), filepath.Base(name))
}

func arrowSchemaColumns(s *arrow.Schema, file string) ([]*ir.Column, error) {
	var cols []*ir.Column
	for _, f := range s.Fields() {
		t, err := ir.FromArrow(f.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %v", file, f.Name, err)
		}
		cols = append(cols, &ir.Column{Name: f.Name, Type: t, NotNull: !f.Nullable})
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("%s has no columns", file)
	}
	return cols, nil
}

// csvColumns infers a CSV file's columns Spark's way: per column, the
// narrowest of INT, BIGINT, DOUBLE, BOOLEAN, DATE, TIMESTAMP that every
// non-null sampled value parses as, else STRING.
func csvColumns(name string, opts []ir.KV, infer bool) ([]*ir.Column, error) {
	header, sep, quote, null := false, ",", `"`, ""
	for _, kv := range opts {
		switch strings.ToLower(kv.Key) {
		case "header":
			header = strings.EqualFold(kv.Value, "true")
		case "sep", "delimiter":
			sep = kv.Value
		case "quote":
			quote = kv.Value
		case "nullvalue":
			null = kv.Value
		}
	}
	sepRunes := []rune(unescapeSep(sep))
	if len(sepRunes) != 1 {
		return nil, fmt.Errorf("the separator %q is not one character", sep)
	}
	if quote != `"` {
		return nil, fmt.Errorf("inference reads only the default quote character \"")
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(io.LimitReader(f, sampleBytes)))
	r.Comma = sepRunes[0]
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var names []string
	var kinds []csvKind
	rows := 0
	for rows < sampleRows {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(name), err)
		}
		if header && names == nil {
			names = append([]string(nil), rec...)
			kinds = make([]csvKind, len(names))
			continue
		}
		for len(kinds) < len(rec) {
			kinds = append(kinds, kNull)
		}
		for i, v := range rec {
			if v == null {
				continue
			}
			kinds[i] = mergeCSV(kinds[i], csvFieldKind(v, infer))
		}
		rows++
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("%s is empty", filepath.Base(name))
	}
	var cols []*ir.Column
	for i, k := range kinds {
		n := fmt.Sprintf("_c%d", i)
		if i < len(names) && names[i] != "" {
			n = names[i]
		}
		cols = append(cols, &ir.Column{Name: n, Type: k.typ()})
	}
	return cols, nil
}

func unescapeSep(s string) string {
	switch s {
	case `\t`:
		return "\t"
	case `\\`:
		return `\`
	}
	return s
}

// csvKind is an inferred CSV column type, in Spark's widening order.
type csvKind int

const (
	kNull csvKind = iota
	kInt
	kLong
	kDouble
	kBool
	kDate
	kTimestamp
	kString
)

func (k csvKind) typ() ir.Type {
	switch k {
	case kInt:
		return ir.Int32
	case kLong:
		return ir.Int64
	case kDouble:
		return ir.Float64
	case kBool:
		return ir.Bool
	case kDate:
		return ir.Date32
	case kTimestamp:
		return ir.Timestamp(ir.Micro, "UTC")
	}
	return ir.StringT // kString, and a column with no non-null value
}

func csvFieldKind(v string, infer bool) csvKind {
	if !infer {
		return kString
	}
	if _, err := strconv.ParseInt(v, 10, 32); err == nil {
		return kInt
	}
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return kLong
	}
	if isSparkDouble(v) {
		return kDouble
	}
	if strings.EqualFold(v, "true") || strings.EqualFold(v, "false") {
		return kBool
	}
	if _, err := parseDate(v); err == nil && len(strings.TrimSpace(v)) == 10 {
		return kDate
	}
	if _, err := parseTimestamp(v, true); err == nil && len(strings.TrimSpace(v)) > 10 {
		return kTimestamp
	}
	return kString
}

func isSparkDouble(v string) bool {
	switch v {
	case "NaN", "Inf", "-Inf", "Infinity", "-Infinity", "+Infinity":
		return true
	}
	f, err := strconv.ParseFloat(v, 64)
	return err == nil && !math.IsInf(f, 0) && !strings.ContainsAny(v, "xXpP_")
}

// mergeCSV widens two kinds as Spark's CSV inference does: numbers widen to
// the wider number, a date and a timestamp to a timestamp, anything else
// to a string.
func mergeCSV(a, b csvKind) csvKind {
	switch {
	case a == b:
		return a
	case a == kNull:
		return b
	case b == kNull:
		return a
	}
	if a > b {
		a, b = b, a
	}
	switch {
	case b <= kDouble: // both numeric
		return b
	case a == kDate && b == kTimestamp:
		return kTimestamp
	}
	return kString
}

// jsonColumns infers a JSON-lines file's columns Spark's way: fields in
// name order; integral numbers BIGINT, other numbers DOUBLE, booleans
// BOOLEAN, strings STRING (no date or timestamp inference); a field that is
// null throughout is STRING. Nested objects and arrays are refused.
func jsonColumns(name string, infer bool) ([]*ir.Column, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	kinds := map[string]csvKind{}
	rows := 0
	sc := bufio.NewScanner(io.LimitReader(f, sampleBytes))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() && rows < sampleRows {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON object: %v", filepath.Base(name), line, err)
		}
		for k, v := range obj {
			var kind csvKind
			switch v := v.(type) {
			case nil:
				kind = kNull
			case bool:
				kind = kBool
			case string:
				kind = kString
			case json.Number:
				if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
					kind = kLong
				} else {
					kind = kDouble
				}
			default:
				return nil, fmt.Errorf("%s:%d: field %q is a nested %s, which the model has no type for", filepath.Base(name), line, k, jsonKind(v))
			}
			if !infer && kind != kNull {
				kind = kString
			}
			kinds[k] = mergeJSON(kinds[k], kind)
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(kinds) == 0 {
		return nil, errors.New(filepath.Base(name) + " has no fields")
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	var cols []*ir.Column
	for _, n := range names {
		cols = append(cols, &ir.Column{Name: n, Type: kinds[n].typ()})
	}
	return cols, nil
}

func jsonKind(v any) string {
	if _, ok := v.([]any); ok {
		return "array"
	}
	return "object"
}

// mergeJSON widens as Spark's JSON inference does: BIGINT and DOUBLE to
// DOUBLE, anything else that differs to STRING.
func mergeJSON(a, b csvKind) csvKind {
	switch {
	case a == b:
		return a
	case a == kNull:
		return b
	case b == kNull:
		return a
	case (a == kLong && b == kDouble) || (a == kDouble && b == kLong):
		return kDouble
	}
	return kString
}
