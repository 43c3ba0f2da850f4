package sql

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"

	"github.com/nordisk/thund/ir"
)

// File sources: read_files(...), read_kafka(...) and parquet.`path` reads
// become source datasets. A CREATE TEMPORARY VIEW whose query only reads files is that
// source (named like the view); a file read anywhere else is a source
// synthesized for it, named <flow>_files_<n> (see doc.go).

// fileArgs are the parsed arguments of a file read.
type fileArgs struct {
	pos     ir.Pos
	path    string
	format  string // as written, or from the path's extension
	schema  string // the schema => DDL, or ""
	schemaP ir.Pos
	infer   bool // inferColumnTypes / inferSchema (default true)
	opts    []ir.KV
	// quarantine is the quarantineTable option (Thund's own: the streaming
	// table that receives the source's malformed records), at quarP
	quarantine string
	quarP      ir.Pos
	kafka      bool // read_kafka(...): opts are its options, and there is no path
	iceberg    bool // iceberg.`location`: path is the table's location, opts its read options
}

// readKafkaArgs parses read_kafka(key => value, ...): named options only,
// Databricks' names (bootstrapServers, subscribe, startingOffsets, ...), and
// Spark's kafka.-prefixed ones in back quotes. ir.Validate and check
// (passes, through internal/kafkaopt) judge the options themselves.
func (c *conv) readKafkaArgs(f *funcRelAST) (*fileArgs, bool) {
	a := &fileArgs{pos: pos(f.Pos), kafka: true}
	for _, arg := range f.Args {
		if arg.Named == nil {
			c.errorf(pos(arg.Pos), ir.CodeSyntax, "read_kafka takes named options only, as read_kafka(bootstrapServers => 'host:port', subscribe => 'topic'): it reads topics, not a path")
			return nil, false
		}
		k := arg.Named.Key.Name
		switch strings.ToLower(k) {
		case "schema", "format":
			c.errorf(pos(arg.Pos), ir.CodeSyntax, "read_kafka takes no %s option: its columns are Kafka's (key, value, topic, partition, offset, timestamp, timestampType); parse the value in the query, as from_json(CAST(value AS STRING), '...')", k)
			return nil, false
		}
		v, ok := c.constText(arg.Named.Value, "read_kafka")
		if !ok {
			return nil, false
		}
		a.opts = append(a.opts, ir.KV{Pos: pos(arg.Pos), Key: k, Value: v})
	}
	if len(a.opts) == 0 {
		c.errorf(a.pos, ir.CodeSyntax, "read_kafka needs its options: read_kafka(bootstrapServers => 'host:port', subscribe => 'topic')")
		return nil, false
	}
	return a, true
}

// readFilesArgs parses read_files('path', key => value, ...).
func (c *conv) readFilesArgs(f *funcRelAST) (*fileArgs, bool) {
	a := &fileArgs{pos: pos(f.Pos), infer: true}
	for i, arg := range f.Args {
		switch {
		case arg.Named != nil:
			v, ok := c.constText(arg.Named.Value, "read_files")
			if !ok {
				return nil, false
			}
			k := arg.Named.Key.Name
			switch strings.ToLower(k) {
			case "format":
				a.format = v
			case "schema":
				a.schema, a.schemaP = v, pos(arg.Named.Value.Pos)
			case "infercolumntypes", "inferschema":
				a.infer = !strings.EqualFold(v, "false")
			case "quarantinetable":
				a.quarantine, a.quarP = v, pos(arg.Pos)
			case "schemahints", "schemalocation":
				c.errorf(pos(arg.Pos), ir.CodeSyntax, "the read_files option %s is not supported in pipeline SQL: declare the schema with schema => '...'", k)
				return nil, false
			default:
				a.opts = append(a.opts, ir.KV{Pos: pos(arg.Pos), Key: k, Value: v})
			}
		case i == 0 && arg.Expr != nil:
			v, ok := c.constText(arg.Expr, "read_files")
			if !ok {
				return nil, false
			}
			a.path = v
		default:
			c.errorf(pos(arg.Pos), ir.CodeSyntax, "read_files takes one path, then named options (key => value)")
			return nil, false
		}
	}
	if a.path == "" {
		c.errorf(a.pos, ir.CodeSyntax, "read_files needs a path: read_files('data/*.csv', format => 'csv')")
		return nil, false
	}
	return a, true
}

// constText reads a constant option value of the table function fn: a
// string, a number or a boolean.
func (c *conv) constText(e *exprAST, fn string) (string, bool) {
	x := c.expr(e)
	if x == nil {
		return "", false
	}
	if lit, ok := x.(*ir.Literal); ok {
		switch lit.Kind {
		case ir.LitString, ir.LitBool, ir.LitInt, ir.LitDecimal:
			return lit.Text, true
		}
	}
	if ref, ok := x.(*ir.ColumnRef); ok && ref.Qualifier == "" {
		return ref.Name, true // format => csv
	}
	c.errorf(pos(e.Pos), ir.CodeSyntax, "a %s option value must be a constant string, number or boolean", fn)
	return "", false
}

// extFormats maps file extensions to formats.
var extFormats = map[string]string{
	".parquet": "parquet", ".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
	".arrow": "arrow", ".ipc": "arrow", ".feather": "arrow", ".arrows": "arrow",
}

// fileSpec builds the source spec and columns of a file read. declared are
// the columns the view's column list gives, if any.
func (c *conv) fileSpec(a *fileArgs, name string, declared []*ir.Column, stream bool) (*ir.SourceSpec, []*ir.Column, bool) {
	if a.iceberg {
		return c.icebergSpec(a, name, declared, stream)
	}
	if a.kafka {
		spec := &ir.SourceSpec{Pos: a.pos, Format: ir.FormatKafka, Unbounded: stream, Options: a.opts}
		if len(declared) > 0 {
			return spec, declared, true // ir.Validate holds them to Kafka's
		}
		return spec, ir.KafkaColumns(a.pos, ir.KafkaIncludeHeaders(a.opts)), true
	}
	if strings.IndexByte(a.path, 0) >= 0 {
		c.errorf(a.pos, ir.CodeBadDataset, "file path %s contains a NUL byte, which no file path can hold", strconv.Quote(a.path))
		return nil, nil, false
	}
	fmtName := a.format
	if fmtName == "" {
		ext := strings.ToLower(path.Ext(strings.TrimRight(a.path, "/*")))
		fmtName = extFormats[ext]
		if fmtName == "" {
			c.errorf(a.pos, ir.CodeSyntax, "read_files('%s'): the format cannot be told from the path: add format => 'parquet' (or csv, json, arrow)", a.path)
			return nil, nil, false
		}
	}
	ff, ok := ir.ParseFileFormat(fmtName)
	if ok && ff == ir.FormatIceberg {
		c.errorf(a.pos, ir.CodeSyntax, "read_files does not read Iceberg tables (open-source Spark has no read_files): read iceberg.`%s`, or bind a table name to it (thund.source.NAME: \"iceberg.`%s`\")", a.path, a.path)
		return nil, nil, false
	}
	if !ok {
		c.errorf(a.pos, ir.CodeSyntax, "read_files format %q is not supported (want parquet, csv, json or arrow)", fmtName)
		return nil, nil, false
	}
	spec := &ir.SourceSpec{Pos: a.pos, Format: ff, Paths: []string{a.path}, Unbounded: stream, Options: a.opts}
	if a.quarantine != "" {
		spec.Quarantine = &ir.Quarantine{Pos: a.quarP, Table: a.quarantine}
	}
	switch {
	case len(declared) > 0 && a.schema != "":
		c.errorf(a.schemaP, ir.CodeSyntax, "the view declares its columns and read_files declares a schema: give one")
		return nil, nil, false
	case len(declared) > 0:
		return spec, declared, true
	case a.schema != "":
		cols, ok := c.schemaDDL(a.schema, a.schemaP)
		return spec, withRescued(cols, a), ok
	}
	cols, err := inferColumns(ff, a.path, c.fs.dir, a.opts, a.infer)
	if err != nil {
		c.errorf(a.pos, ir.CodeBadDataset, "cannot infer the schema of read_files('%s'): %v; declare it with schema => 'col TYPE, ...'", a.path, err)
		return nil, nil, false
	}
	return spec, withRescued(cols, a), true
}

// withRescued adds the rescued-data column the options ask for to a
// schema read_files infers or is given (schema => ...), as Lakeflow's
// read_files adds it; a view's own column list must name it.
func withRescued(cols []*ir.Column, a *fileArgs) []*ir.Column {
	if r := rescuedColumn(a.opts); r != "" && !slices.ContainsFunc(cols, func(c *ir.Column) bool { return c.Name == r }) {
		cols = append(cols, &ir.Column{Pos: a.pos, Name: r, Type: ir.Type{Kind: ir.TString}})
	}
	return cols
}

// rescuedColumn is the rescued-data column read_files' options ask for:
// rescuedDataColumn, or _rescued_data under schemaEvolutionMode rescue
// (Lakeflow's default); "" for none.
func rescuedColumn(opts []ir.KV) string {
	name, rescue := "", false
	for _, kv := range opts {
		switch strings.ToLower(kv.Key) {
		case "rescueddatacolumn":
			name = kv.Value
		case "schemaevolutionmode":
			rescue = strings.EqualFold(kv.Value, "rescue")
		}
	}
	if name == "" && rescue {
		name = "_rescued_data"
	}
	return name
}

// schemaDDL is the grammar of a schema => 'a INT, b STRING NOT NULL' string.
type schemaDDLAST struct {
	Cols []*colDefAST `parser:"@@ ( ',' @@ )*"`
}

var schemaParser = sync.OnceValue(func() *participle.Parser[schemaDDLAST] {
	return participle.MustBuild[schemaDDLAST](
		participle.Lexer(sqlLexer),
		participle.CaseInsensitive("Ident"),
		participle.Elide("Whitespace"),
		participle.UseLookahead(participle.MaxLookahead),
	)
})

func (c *conv) schemaDDL(ddl string, p ir.Pos) ([]*ir.Column, bool) {
	ast, err := schemaParser().ParseString(p.File, ddl)
	if err != nil {
		msg := err.Error()
		var ute *participle.UnexpectedTokenError
		if errors.As(err, &ute) {
			if ute.Unexpected.EOF() {
				msg = "unexpected end of the schema"
			} else {
				msg = fmt.Sprintf("unexpected %q at column %d", ute.Unexpected.Value, ute.Unexpected.Pos.Column)
			}
		} else if pe, ok := err.(participle.Error); ok {
			msg = pe.Message()
		}
		c.errorf(p, ir.CodeSyntax, "schema %q: %s: want 'name TYPE [NOT NULL] [COMMENT ...], ...'", ddl, msg)
		return nil, false
	}
	var cols []*ir.Column
	for _, cd := range ast.Cols {
		col := c.columnDef(cd, "read_files schema")
		if col == nil {
			return nil, false
		}
		col.Pos = p
		cols = append(cols, col)
	}
	return cols, true
}

// validName turns a flow name into a dataset-name prefix.
var invalidNameChars = regexp.MustCompile(`[^a-z0-9_-]+`)

// synthName names the next source synthesized for the current flow: a
// file read's <flow>_files_<n>, a read_kafka's <flow>_kafka_<n>.
func (c *conv) synthName(kind string) string {
	prefix := invalidNameChars.ReplaceAllString(strings.ToLower(c.flow), "_")
	prefix = strings.TrimLeft(prefix, "_-")
	if prefix == "" {
		prefix = "source"
	}
	key := prefix + "_" + kind
	c.b.synth[key]++
	return fmt.Sprintf("%s_%s_%d", prefix, kind, c.b.synth[key])
}

// readFiles converts an inline read_files(...) to a synthesized source and
// a read of it.
func (c *conv) readFiles(f *funcRelAST, alias string, stream bool, wm *ir.Watermark) ir.Rel {
	a, ok := c.readFilesArgs(f)
	if !ok {
		return nil
	}
	return c.synthRead(f, a, alias, stream, wm)
}

// readKafka converts an inline read_kafka(...) to a synthesized source and
// a read of it: a stream with STREAM, otherwise a bounded read (from
// startingOffsets to endingOffsets).
func (c *conv) readKafka(f *funcRelAST, alias string, stream bool, wm *ir.Watermark) ir.Rel {
	a, ok := c.readKafkaArgs(f)
	if !ok {
		return nil
	}
	return c.synthRead(f, a, alias, stream, wm)
}

// fileRead converts parquet.`path` (and csv., json., arrow.).
func (c *conv) fileRead(q *qnameAST, format, p, alias string, stream bool, wm *ir.Watermark, extra []ir.KV) ir.Rel {
	a := &fileArgs{pos: pos(q.Pos), path: p, format: strings.ToLower(format), infer: true}
	if a.format == "iceberg" {
		a.iceberg, a.opts = true, extra
	}
	return c.synthRead(q, a, alias, stream, wm)
}

// synthRead reads the source synthesized for the file read at node. A node
// converted again (a WITH query read twice) reads the same source.
func (c *conv) synthRead(node any, a *fileArgs, alias string, stream bool, wm *ir.Watermark) ir.Rel {
	key := synthKey{node, stream}
	src := c.b.synthMemo[key]
	if src == nil {
		kind := "files"
		switch {
		case a.kafka:
			kind = "kafka"
		case a.iceberg:
			kind = "iceberg"
		}
		name := c.synthName(kind)
		spec, cols, ok := c.fileSpec(a, name, nil, stream)
		if !ok {
			return nil
		}
		src = &synthSource{d: &ir.Dataset{Pos: a.pos, Kind: ir.KindSource, Name: name, Columns: cols, Source: spec}}
		c.pending = append(c.pending, src.d)
		c.b.synthesized = append(c.b.synthesized, src)
		c.b.synthMemo[key] = src
	}
	s := &ir.Scan{Pos: a.pos, Name: src.d.Name, Alias: alias, Stream: stream, Watermark: wm}
	src.scans = append(src.scans, s)
	if alias != "" {
		c.noteAlias(alias)
	}
	return s
}

// sourceView recognises CREATE TEMPORARY VIEW v [(cols)] AS SELECT * FROM
// [STREAM] read_files(...) [WATERMARK ...] (or a parquet.`path` read) and
// turns d into that source. handled is false for any other query.
func (c *conv) sourceView(d *ir.Dataset, q *queryAST) (src *ir.Dataset, handled bool) {
	if len(q.With) > 0 || len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil || len(q.Body.Rest) > 0 {
		return nil, false
	}
	sel := q.Body.Left.Select
	if sel == nil || sel.Quant != "" || len(sel.Items) != 1 || len(sel.From) != 1 || len(sel.From[0].Joins) > 0 ||
		sel.Where != nil || sel.GroupBy != nil || sel.GroupAll || sel.Having != nil {
		return nil, false
	}
	if st := bareStar(sel.Items[0].Expr); st == nil || len(st.Qualifier) > 0 || len(st.Except) > 0 || sel.Items[0].alias() != "" {
		return nil, false
	}
	p := sel.From[0].Primary
	stream := p.Stream != nil
	var f *funcRelAST
	var file *qnameAST
	switch {
	case p.Func != nil:
		f = p.Func
	case p.Stream != nil && p.Stream.Func != nil:
		f = p.Stream.Func
	case p.Stream != nil && p.Stream.ParenFunc != nil:
		f = p.Stream.ParenFunc
	case p.Name != nil:
		file = p.Name
	case p.Stream != nil && p.Stream.Name != nil:
		file = p.Stream.Name
	case p.Stream != nil && p.Stream.ParenName != nil:
		file = p.Stream.ParenName
	}
	var a *fileArgs
	switch {
	case f != nil && (p.Travel != nil || p.Options != nil):
		return nil, false // the query's conversion refuses them
	case f != nil && strings.EqualFold(f.Name.Name, "read_files"):
		var ok bool
		if a, ok = c.readFilesArgs(f); !ok {
			return nil, true
		}
	case f != nil && strings.EqualFold(f.Name.Name, "read_kafka"):
		var ok bool
		if a, ok = c.readKafkaArgs(f); !ok {
			return nil, true
		}
	case file != nil && len(file.Rest) == 1 && file.Rest[0].Quoted && fileFormats[strings.ToLower(file.First.Name)]:
		a = &fileArgs{pos: pos(file.Pos), path: file.Rest[0].Name, format: strings.ToLower(file.First.Name), infer: true}
		if (p.Travel != nil || p.Options != nil) && (a.format != "iceberg" || p.Stream != nil && p.Travel != nil) {
			return nil, false // the query's conversion says what is wrong
		}
		if a.format == "iceberg" {
			extra, ok := c.readExtras(p)
			if !ok {
				return nil, true
			}
			a.iceberg, a.opts = true, extra
		}
	default:
		return nil, false
	}
	spec, cols, ok := c.fileSpec(a, d.Name, d.Columns, stream)
	if !ok {
		return nil, true
	}
	d.Kind = ir.KindSource
	d.Columns = cols
	d.Source = spec
	d.Conf = nil // a source runs no SQL
	if p.Watermark != nil {
		wm, ok := c.watermark(p.Watermark)
		if !ok {
			return nil, true
		}
		d.Watermark = wm
	}
	return d, true
}

// synthSource is a synthesized source and its reads.
type synthSource struct {
	d     *ir.Dataset
	scans []*ir.Scan
}

type synthKey struct {
	node   any // the AST node of the file read
	stream bool
}

// bindSources turns the spec's thund.source.<name> bindings into sources:
// every read of <name> reads the source, named after the name's last part.
func (b *builder) bindSources() {
	defined := map[string]bool{}
	for _, d := range b.p.Datasets {
		defined[strings.ToLower(d.Name)] = true
	}
	for _, bind := range b.opts.Sources {
		parts := strings.Split(bind.Name, ".")
		name := parts[len(parts)-1]
		if defined[strings.ToLower(name)] {
			b.diags.Add(bind.Pos, ir.CodeDuplicateName, "thund.source.%s binds %q, which the pipeline already defines", bind.Name, name)
			continue
		}
		fs := &fileState{name: bind.Pos.File, dir: bind.Dir}
		c := &conv{b: b, fs: fs, flow: name}
		toks, err := lexStatement(statement{text: bind.Spec, base: lexerPos(bind.Pos)})
		if err != nil {
			b.diags.Add(bind.Pos, ir.CodeLex, "thund.source.%s: %v", bind.Name, err)
			continue
		}
		ast, err := relParser().ParseFromLexer(mustUpgrade(toks))
		if err != nil {
			b.diags.Add(bind.Pos, ir.CodeSyntax, "thund.source.%s: want %s: %v", bind.Name, bindingForms, err)
			continue
		}
		if qn := icebergName(ast); qn != nil {
			if b.bindIceberg(c, bind, name, ast, qn) {
				defined[strings.ToLower(name)] = true
			}
			continue
		}
		var f *funcRelAST
		stream := ast.Stream != nil
		switch {
		case ast.Func != nil:
			f = ast.Func
		case ast.Stream != nil && ast.Stream.Func != nil:
			f = ast.Stream.Func
		case ast.Stream != nil && ast.Stream.ParenFunc != nil:
			f = ast.Stream.ParenFunc
		}
		if f == nil || !strings.EqualFold(f.Name.Name, "read_files") && !strings.EqualFold(f.Name.Name, "read_kafka") || ast.Alias != nil || ast.Travel != nil || ast.Options != nil {
			b.diags.Add(bind.Pos, ir.CodeSyntax, "thund.source.%s: want %s", bind.Name, bindingForms)
			continue
		}
		var a *fileArgs
		var ok bool
		if strings.EqualFold(f.Name.Name, "read_kafka") {
			a, ok = c.readKafkaArgs(f)
		} else {
			a, ok = c.readFilesArgs(f)
		}
		if !ok {
			continue
		}
		// The source is unbounded when written STREAM read_files(...) or
		// when any flow reads it as a stream.
		var reads []*ir.Scan
		for i := range b.scans {
			r := &b.scans[i]
			if strings.EqualFold(r.scan.Name, bind.Name) {
				if len(r.extra) > 0 {
					r.bound = true
					b.diags.Add(r.extra[0].Pos, ir.CodeSyntax, "%s is bound to files, which take no time travel or WITH options (only an Iceberg table does: thund.source.%s: \"iceberg.`LOCATION`\")", r.scan.Name, bind.Name)
				}
				reads = append(reads, r.scan)
				stream = stream || r.scan.Stream
			}
		}
		spec, cols, ok := c.fileSpec(a, name, nil, stream)
		if !ok {
			continue
		}
		d := &ir.Dataset{Pos: bind.Pos, Kind: ir.KindSource, Name: name, Columns: cols, Source: spec}
		if ast.Watermark != nil {
			if d.Watermark, ok = c.watermark(ast.Watermark); !ok {
				continue
			}
		}
		b.p.Datasets = append(b.p.Datasets, d)
		defined[strings.ToLower(name)] = true
		for _, s := range reads {
			s.Name = name
		}
	}
	// Time travel and WITH options are for Iceberg tables only.
	for _, r := range b.scans {
		if len(r.extra) > 0 && !r.bound {
			b.diags.Add(r.extra[0].Pos, ir.CodeSyntax, "time travel and WITH options apply to an Iceberg table, and %s is not one: bind it to one (thund.source.%s: \"iceberg.`LOCATION`\"), or read iceberg.`LOCATION`", r.scan.Name, r.scan.Name)
		}
	}
	// A synthesized source never takes a declared name.
	for _, r := range b.synthesized {
		n := r.d.Name
		for i := 2; b.nameTaken(n, r.d); i++ {
			n = fmt.Sprintf("%s_%d", r.d.Name, i)
		}
		r.d.Name = n
		for _, s := range r.scans {
			s.Name = n
		}
	}
}

func (b *builder) nameTaken(name string, self *ir.Dataset) bool {
	for _, d := range b.p.Datasets {
		if d != self && strings.EqualFold(d.Name, name) {
			return true
		}
	}
	return false
}

// relParser parses a thund.source binding: one FROM item.
var relParser = sync.OnceValue(func() *participle.Parser[primaryRelAST] {
	return participle.MustBuild[primaryRelAST](
		participle.Lexer(sqlLexer),
		participle.CaseInsensitive("Ident"),
		participle.Elide("Whitespace"),
		participle.UseLookahead(participle.MaxLookahead),
	)
})
