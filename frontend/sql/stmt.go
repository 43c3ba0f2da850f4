package sql

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// conv converts the AST of one statement to IR.
type conv struct {
	b  *builder
	fs *fileState
	st statement // the statement being converted

	// flow is the name of the flow whose query is being converted: the
	// prefix of the sources synthesized for inline read_files(...).
	flow string
	// cteStack is the stack of WITH scopes, innermost last.
	cteStack []cteScope
	// synthesized sources of the statement, inserted before its dataset.
	pending []*ir.Dataset
	// relAliases are the relation aliases in scope (for window.start).
	relAliases []map[string]bool
	// lambdaParams are the parameters of the lambdas being converted,
	// innermost last (lambda.go).
	lambdaParams [][]string
	// doc are the comment lines before the statement.
	doc ir.Comments
	// windows is the stack of WINDOW clauses in scope, innermost last
	// (window.go).
	windows [][]*namedWindowAST
}

func (c *conv) errorf(p ir.Pos, code ir.Code, format string, args ...any) {
	c.b.diags.Add(p, code, format, args...)
}

func (c *conv) stmt(s *stmtAST, doc []string) {
	c.doc = doc
	switch {
	case s.Use != nil:
		c.use(s.Use)
	case s.CDC != nil:
		c.cdcStatement(s.CDC)
	case s.Create != nil:
		c.create(s.Create)
	}
}

func (c *conv) use(u *useAST) {
	if u.Catalog != nil {
		c.useCatalog(u.Catalog.Name)
		return
	}
	parts := u.Schema.parts()
	switch len(parts) {
	case 1:
		c.fs.database = parts[0]
	case 2:
		c.fs.catalog, c.fs.database = parts[0], parts[1]
	default:
		c.errorf(pos(u.Schema.Pos), ir.CodeSyntax, "USE %s: a schema name has at most two parts (catalog.schema)", strings.Join(parts, "."))
	}
}

// useCatalog sets the file's catalog and, as Spark does, clears its schema.
func (c *conv) useCatalog(name string) {
	c.fs.catalog = name
	c.fs.database = ""
}

func (c *conv) create(cr *createAST) {
	or := strings.ToUpper(cr.Or)
	switch {
	case cr.MV != nil:
		if or == "REPLACE" {
			c.errorf(pos(cr.Pos), ir.CodeSyntax, "CREATE OR REPLACE MATERIALIZED VIEW is not supported in pipeline SQL: write CREATE [OR REFRESH] MATERIALIZED VIEW")
			return
		}
		c.dataset(cr.MV, ir.KindMaterializedView)
	case cr.ST != nil:
		if or == "REPLACE" {
			c.errorf(pos(cr.Pos), ir.CodeSyntax, "CREATE OR REPLACE STREAMING TABLE is not supported in pipeline SQL: write CREATE [OR REFRESH] STREAMING TABLE")
			return
		}
		c.dataset(cr.ST, ir.KindStreamingTable)
	case cr.TempView != nil:
		if or == "REFRESH" {
			c.errorf(pos(cr.Pos), ir.CodeSyntax, "CREATE OR REFRESH TEMPORARY VIEW is not supported: OR REFRESH applies to materialized views and streaming tables")
			return
		}
		c.dataset(cr.TempView, ir.KindTemporaryView)
	case cr.View != nil:
		if or == "REFRESH" {
			c.errorf(pos(cr.Pos), ir.CodeSyntax, "CREATE OR REFRESH VIEW is not supported: OR REFRESH applies to materialized views and streaming tables")
			return
		}
		c.dataset(cr.View, ir.KindView)
	case cr.Flow != nil:
		if or != "" {
			c.errorf(pos(cr.Pos), ir.CodeSyntax, "CREATE OR %s FLOW is not supported in pipeline SQL: write CREATE FLOW", or)
			return
		}
		c.flowStatement(cr.Flow)
	}
}

// qualify splits a dataset name into its catalog, database and name, filling
// in the file's USE state. A part equal to the pipeline default is "".
func (c *conv) qualify(q *qnameAST, what string) (cat, db, name string, ok bool) {
	parts := q.parts()
	cat, db = c.fs.catalog, c.fs.database
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		db, name = parts[0], parts[1]
	case 3:
		cat, db, name = parts[0], parts[1], parts[2]
	default:
		c.errorf(pos(q.Pos), ir.CodeSyntax, "%s name %s has %d parts: want at most catalog.schema.name", what, strings.Join(parts, "."), len(parts))
		return "", "", "", false
	}
	if strings.EqualFold(cat, c.b.opts.Catalog) {
		cat = ""
	}
	if strings.EqualFold(db, c.b.opts.Database) {
		db = ""
	}
	return cat, db, name, true
}

// dataset converts CREATE MATERIALIZED VIEW / STREAMING TABLE / [TEMPORARY] VIEW.
func (c *conv) dataset(a *datasetAST, kind ir.DatasetKind) {
	what := kind.String()
	d := &ir.Dataset{Pos: pos(a.Name.Pos), Kind: kind}
	if kind == ir.KindTemporaryView {
		if len(a.Name.Rest) > 0 {
			c.errorf(pos(a.Name.Pos), ir.CodeSyntax, "temporary view name %s must not be qualified (Spark: TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS; from 4.2, INVALID_TEMP_OBJ_QUALIFIER)", strings.Join(a.Name.parts(), "."))
			return
		}
		d.Name = a.Name.First.Name
	} else {
		cat, db, name, ok := c.qualify(a.Name, what)
		if !ok {
			return
		}
		d.Name, d.Catalog, d.Database = name, cat, db
	}
	d.Conf = c.fs.confCopy()
	d.Doc = c.doc
	c.flow = d.Name

	// Column definitions and constraints.
	for _, el := range a.Elements {
		switch {
		case el.Constraint != nil:
			if x := c.expectation(el.Constraint); x != nil {
				d.Expectations = append(d.Expectations, x)
			}
		case el.Column != nil:
			if col := c.columnDef(el.Column, what); col != nil {
				d.Columns = append(d.Columns, col)
			}
		}
	}
	c.clauses(d, a.Clauses)

	// A temporary view that only reads files is a source.
	if kind == ir.KindTemporaryView && a.Query != nil {
		if src, ok := c.sourceView(d, a.Query); ok {
			if src != nil {
				c.b.p.Datasets = append(c.b.p.Datasets, src)
			}
			return
		}
	}

	var flow *ir.Flow
	switch {
	case a.AutoCDC != nil:
		if kind != ir.KindStreamingTable {
			c.errorf(pos(a.AutoCDC.Pos), ir.CodeSyntax, "FLOW AUTO CDC belongs to CREATE STREAMING TABLE, not to a %s", what)
			return
		}
		if a.AutoCDC.Target != nil {
			c.errorf(pos(a.AutoCDC.Target.Pos), ir.CodeSyntax, "CREATE STREAMING TABLE ... FLOW AUTO CDC takes no INTO: the target is the table")
		}
		flow = c.cdcFlow(a.AutoCDC, d.Name, d.Name)
	case a.Query != nil:
		q := c.query(a.Query)
		if q != nil {
			flow = &ir.Flow{Pos: pos(a.Query.Pos), Name: d.Name, Target: d.Name, Query: q}
			if kind == ir.KindView {
				flow.SQL = c.sqlText(a.Query)
			}
		}
	default:
		if kind != ir.KindStreamingTable {
			c.errorf(pos(a.Name.Pos), ir.CodeSyntax, "%s %s needs a query: add AS SELECT ...", what, d.Name)
			return
		}
	}
	c.b.p.Datasets = append(c.b.p.Datasets, c.pending...)
	c.pending = nil
	c.b.p.Datasets = append(c.b.p.Datasets, d)
	if flow != nil {
		c.b.p.Flows = append(c.b.p.Flows, flow)
	}
}

// sqlText is the text of a statement's query, which runs to the end of the
// statement, with the file's USE state.
func (c *conv) sqlText(q *queryAST) *ir.SQLText {
	off := q.Pos.Offset - c.st.base.Offset
	if off < 0 || off > len(c.st.text) {
		return nil
	}
	return &ir.SQLText{Query: strings.TrimSpace(c.st.text[off:]), Catalog: c.fs.catalog, Database: c.fs.database}
}

// clauses applies COMMENT, PARTITIONED BY, CLUSTER BY, USING and
// TBLPROPERTIES; each may appear once, and not both PARTITIONED BY and
// CLUSTER BY.
func (c *conv) clauses(d *ir.Dataset, cls []*dsClauseAST) {
	seen := map[string]bool{}
	once := func(cl *dsClauseAST, name string) bool {
		if seen[name] {
			c.errorf(pos(cl.Pos), ir.CodeSyntax, "duplicate %s clause", name)
			return false
		}
		seen[name] = true
		return true
	}
	var props []ir.KV
	for _, cl := range cls {
		switch {
		case cl.Comment != nil:
			if once(cl, "COMMENT") {
				d.Comment = cl.Comment.value()
			}
		case cl.Partition != nil:
			if !once(cl, "PARTITIONED BY") {
				continue
			}
			d.PartitionBy = c.tableColumns(d, cl, "PARTITIONED BY", cl.Partition, "partition transform %s is not supported in pipeline SQL: partition by column names (Spark: Invalid partitioning transform; only single-column identity partitioning)")
		case cl.Cluster != nil:
			if !once(cl, "CLUSTER BY") {
				continue
			}
			d.ClusterBy = c.tableColumns(d, cl, "CLUSTER BY", cl.Cluster, "CLUSTER BY %s: cluster by column names")
		case cl.Using != nil:
			if once(cl, "USING") {
				d.Format = strings.Join(cl.Using.parts(), ".")
				d.FormatPos = pos(cl.Pos)
			}
		case cl.Props != nil:
			if !once(cl, "TBLPROPERTIES") {
				continue
			}
			keys := map[string]bool{}
			for _, p := range cl.Props {
				kv := c.property(p)
				if use, ok := reservedProperties[strings.ToLower(kv.Key)]; ok {
					c.errorf(kv.Pos, ir.CodeSyntax, "%s is a reserved table property: %s (Spark: UNSUPPORTED_FEATURE.SET_TABLE_PROPERTY)", kv.Key, use)
					continue
				}
				if keys[kv.Key] {
					c.errorf(kv.Pos, ir.CodeSyntax, "duplicate table property %q", kv.Key)
					continue
				}
				keys[kv.Key] = true
				props = append(props, kv)
			}
		}
	}
	if seen["PARTITIONED BY"] && seen["CLUSTER BY"] {
		for _, cl := range cls {
			if cl.Cluster != nil {
				c.errorf(pos(cl.Pos), ir.CodeSyntax, "a dataset takes PARTITIONED BY or CLUSTER BY, not both (Spark: SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED)")
			}
		}
	}
	d.Properties = c.takeKnobs(d, props)
}

// reservedProperties are the table properties Spark's parser refuses in
// TBLPROPERTIES (CatalogV2Util's reserved ones), with what to write instead.
var reservedProperties = map[string]string{
	"comment":             "use the COMMENT clause",
	"location":            "a pipeline manages its datasets' storage",
	"provider":            "use the USING clause",
	"owner":               "Spark sets it to the current user",
	"external":            "a pipeline dataset is managed",
	"is_managed_location": "a pipeline manages its datasets' storage",
}

func (c *conv) property(p *propAST) ir.KV {
	kv := ir.KV{Pos: pos(p.Pos)}
	if p.KeyStr != nil {
		kv.Key = p.KeyStr.value()
	} else {
		var parts []string
		for _, k := range p.KeyParts {
			parts = append(parts, k.Name)
		}
		kv.Key = strings.Join(parts, ".")
	}
	v := p.Value
	switch {
	case v.Str != nil:
		kv.Value = v.Str.value()
	case v.Num != "":
		kv.Value = v.Num
	default:
		kv.Value = strings.ToLower(v.Bool)
	}
	return kv
}

func (c *conv) columnDef(cd *colDefAST, what string) *ir.Column {
	col := &ir.Column{Pos: pos(cd.Pos), Name: cd.Name.Name}
	if cd.Type == nil {
		c.errorf(pos(cd.Pos), ir.CodeSyntax, "column %s of a %s needs a type (a column list without types, which renames a view's columns, is not supported)", cd.Name.Name, what)
		return nil
	}
	t, ok := c.sparkType(cd.Type)
	if !ok {
		return nil
	}
	col.Type = t
	commented := false
	for _, o := range cd.Opts {
		switch {
		case o.NotNull:
			col.NotNull = true
		case o.Comment != nil:
			if commented {
				c.errorf(pos(o.Pos), ir.CodeSyntax, "column %s has two COMMENTs", col.Name)
			}
			commented = true
			col.Comment = o.Comment.value()
		}
	}
	return col
}

func (c *conv) expectation(ct *constraintAST) *ir.Expectation {
	x := &ir.Expectation{Pos: pos(ct.Pos), Name: ct.Name.Name, Action: ir.ActWarn}
	x.Cond = c.expr(ct.Cond)
	switch a := strings.ToUpper(ct.Action); {
	case a == "":
	case strings.HasPrefix(a, "DROP"):
		x.Action = ir.ActDrop
	case strings.HasPrefix(a, "FAIL"):
		x.Action = ir.ActFail
	}
	if x.Cond == nil {
		return nil
	}
	return x
}

// flowStatement converts CREATE FLOW name [COMMENT] AS INSERT INTO | AUTO CDC INTO.
func (c *conv) flowStatement(f *flowAST) {
	if len(f.Name.Rest) > 0 {
		c.errorf(pos(f.Name.Pos), ir.CodeSyntax, "flow name %s must be a single part (Spark: MULTIPART_FLOW_NAME_NOT_SUPPORTED)", strings.Join(f.Name.parts(), "."))
		return
	}
	name := f.Name.First.Name
	c.flow = name
	var flow *ir.Flow
	switch {
	case f.Insert != nil:
		in := f.Insert
		if len(in.Cols) > 0 {
			c.errorf(pos(in.Cols[0].Pos), ir.CodeSyntax, "a column list on the flow target is not supported (Spark: column schema may not be specified for a flow target)")
			return
		}
		q := c.query(in.Query)
		if q == nil {
			return
		}
		// SDP inserts flows by name (Spark refuses positional INSERT INTO
		// flows), whether or not BY NAME is written.
		flow = &ir.Flow{Pos: pos(f.Pos), Name: name, Target: c.targetName(in.Target), ByName: true, Query: q}
	case f.CDC != nil:
		if f.CDC.Target == nil {
			c.errorf(pos(f.CDC.Pos), ir.CodeSyntax, "AUTO CDC in CREATE FLOW needs INTO target")
			return
		}
		flow = c.cdcFlow(f.CDC, name, c.targetName(f.CDC.Target))
	}
	if flow == nil {
		return
	}
	if f.Comment != nil {
		flow.Comment = f.Comment.value()
	}
	flow.Conf = c.fs.confCopy()
	c.b.p.Datasets = append(c.b.p.Datasets, c.pending...)
	c.pending = nil
	c.b.p.Flows = append(c.b.p.Flows, flow)
}

// targetName is the name a flow's target is recorded under. A qualified
// target keeps its qualification; finish resolves it against the pipeline's
// datasets.
func (c *conv) targetName(q *qnameAST) string {
	return strings.Join(q.parts(), ".")
}

// cdcStatement converts a standalone APPLY CHANGES INTO / AUTO CDC INTO: a
// flow named like its target (the target's own flow).
func (c *conv) cdcStatement(body *cdcBodyAST) {
	if body.Target == nil {
		c.errorf(pos(body.Pos), ir.CodeSyntax, "APPLY CHANGES needs INTO target")
		return
	}
	target := c.targetName(body.Target)
	name := body.Target.parts()[len(body.Target.parts())-1]
	c.flow = name
	flow := c.cdcFlow(body, name, target)
	if flow == nil {
		return
	}
	flow.Conf = c.fs.confCopy()
	c.b.p.Flows = append(c.b.p.Flows, flow)
}

// cdcFlow converts the AUTO CDC body into a flow whose query reads the
// change feed.
func (c *conv) cdcFlow(body *cdcBodyAST, name, target string) *ir.Flow {
	ok := true
	refuse := func(p ir.Pos, what string) {
		c.errorf(p, ir.CodeSyntax, "%s is not supported in pipeline SQL", what)
		ok = false
	}
	cdc := &ir.CDC{Pos: pos(body.Pos), SCDType: 1}
	for _, k := range body.Keys {
		cdc.Keys = append(cdc.Keys, k.Name)
	}
	if body.IgnoreNull != nil {
		if body.IgnoreNull.On != nil {
			refuse(pos(body.IgnoreNull.On.Pos), "IGNORE NULL UPDATES ON (columns)")
		}
		cdc.IgnoreNullUpdates = true
	}
	if body.DeleteWhen != nil {
		cdc.DeleteWhen = c.expr(body.DeleteWhen)
	}
	if body.TruncateWhen != nil {
		refuse(pos(body.TruncateWhen.Pos), "APPLY AS TRUNCATE WHEN")
	}
	cdc.SequenceBy = c.expr(body.SequenceBy)
	if body.SystemSeq != nil {
		refuse(pos(body.SystemSeq.Pos), "SYSTEM SEQUENCE BY")
	}
	if body.Columns != nil {
		cdc.Columns, cdc.ExceptColumns = colSel(body.Columns)
	}
	if body.StoredAs != nil {
		switch {
		case body.StoredAs.Bitemporal:
			refuse(pos(body.StoredAs.Pos), "STORED AS BITEMPORAL")
		case body.StoredAs.SCD == "1":
			cdc.SCDType = 1
		case body.StoredAs.SCD == "2":
			cdc.SCDType = 2
		default:
			c.errorf(pos(body.StoredAs.Pos), ir.CodeSyntax, "STORED AS SCD TYPE %s: want 1 or 2", body.StoredAs.SCD)
			ok = false
		}
	}
	if body.Track != nil {
		cdc.TrackHistory, cdc.TrackHistoryExcept = colSel(body.Track)
	}
	if body.ColsToUpdate != nil {
		refuse(pos(body.ColsToUpdate.Pos), "COLUMNS TO UPDATE")
	}
	src := body.Source
	q := src.Name
	if src.Paren != nil {
		q = src.Paren
	}
	if src.Paren != nil && !src.Stream {
		c.errorf(pos(src.Pos), ir.CodeSyntax, "a parenthesised change feed source needs STREAM: write FROM STREAM(name)")
		ok = false
	}
	scan := &ir.Scan{Pos: pos(src.Pos), Name: strings.Join(q.parts(), "."), Stream: src.Stream}
	c.noteScan(scan, nil)
	if !ok || cdc.SequenceBy == nil {
		return nil
	}
	return &ir.Flow{Pos: pos(body.Pos), Name: name, Target: target, Query: scan, CDC: cdc}
}

func colSel(s *colSelAST) (cols, except []string) {
	for _, id := range s.Cols {
		cols = append(cols, id.Name)
	}
	for _, id := range s.Except {
		except = append(except, id.Name)
	}
	return cols, except
}

// noteScan records the USE state of a read, for finish.
func (c *conv) noteScan(s *ir.Scan, extra []ir.KV) {
	c.b.scans = append(c.b.scans, scanRef{scan: s, catalog: c.fs.catalog, database: c.fs.database, extra: extra, flow: c.flow})
}

// finish resolves names once every file is read: qualified reads and flow
// targets that name a pipeline dataset become its plain name; unqualified
// reads of names the pipeline does not define are qualified with the USE
// state of their file (when a file set one); the thund.* knobs are applied.
func (b *builder) finish() {
	type qual struct{ cat, db string }
	eff := func(d *ir.Dataset) qual {
		q := qual{d.Catalog, d.Database}
		if q.cat == "" {
			q.cat = b.opts.Catalog
		}
		if q.db == "" {
			q.db = b.opts.Database
		}
		return q
	}
	byName := map[string]*ir.Dataset{}
	for _, d := range b.p.Datasets {
		if _, dup := byName[strings.ToLower(d.Name)]; !dup {
			byName[strings.ToLower(d.Name)] = d
		}
	}
	// resolve returns the pipeline dataset a possibly qualified name
	// designates, or nil.
	resolve := func(name string) *ir.Dataset {
		parts := strings.Split(name, ".")
		d := byName[strings.ToLower(parts[len(parts)-1])]
		if d == nil {
			return nil
		}
		e := eff(d)
		switch len(parts) {
		case 1:
			return d
		case 2:
			if d.Kind == ir.KindTemporaryView || d.Kind == ir.KindSource {
				return nil
			}
			if strings.EqualFold(parts[0], e.db) {
				return d
			}
		case 3:
			if d.Kind == ir.KindTemporaryView || d.Kind == ir.KindSource {
				return nil
			}
			if strings.EqualFold(parts[0], e.cat) && strings.EqualFold(parts[1], e.db) {
				return d
			}
		}
		return nil
	}
	for _, r := range b.scans {
		s := r.scan
		if d := resolve(s.Name); d != nil {
			if strings.Contains(s.Name, ".") {
				s.Name = d.Name // a plain name stays as written
			}
			continue
		}
		if !strings.Contains(s.Name, ".") && (r.catalog != "" || r.database != "") {
			// An external table read under USE: qualify it as Spark does.
			switch {
			case r.catalog != "" && r.database != "":
				s.Name = r.catalog + "." + r.database + "." + s.Name
			case r.database != "":
				s.Name = r.database + "." + s.Name
			}
		}
	}
	for _, f := range b.p.Flows {
		if strings.Contains(f.Target, ".") {
			if d := resolve(f.Target); d != nil {
				f.Target = d.Name
			}
		}
	}
	b.applyKnobs()
}

// parseInt64 parses a (possibly negative) integer literal.
func parseInt64(n *numAST) (int64, bool) {
	v, err := strconv.ParseInt(n.N, 10, 64)
	if err != nil {
		return 0, false
	}
	if n.Neg {
		v = -v
	}
	return v, true
}

// tableColumns reads a clause that names table columns (PARTITIONED BY,
// CLUSTER BY) of a materialized view or streaming table; anything but an
// unqualified column name is an error, with notName's message.
func (c *conv) tableColumns(d *ir.Dataset, cl *dsClauseAST, clause string, list []*exprAST, notName string) []string {
	if d.Kind != ir.KindMaterializedView && d.Kind != ir.KindStreamingTable {
		c.errorf(pos(cl.Pos), ir.CodeSyntax, "%s applies to materialized views and streaming tables, not to a %s", clause, d.Kind)
		return nil
	}
	var names []string
	for _, e := range list {
		x := c.expr(e)
		if ref, ok := x.(*ir.ColumnRef); ok && ref.Qualifier == "" {
			names = append(names, ref.Name)
			continue
		}
		c.errorf(pos(e.Pos), ir.CodeSyntax, notName, autoName(x))
	}
	return names
}
