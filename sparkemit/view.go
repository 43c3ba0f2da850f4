package sparkemit

import (
	"fmt"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// A persisted view has no DefineOutput: OutputType has no value for one in
// either release (4.1.4 and 4.2.1 alike), and Spark keeps a persisted view's
// query as SQL text in its catalog, which a Relation does not carry. The
// server defines one only from SQL, so a persisted view is lowered to a
// DefineSqlGraphElements of its own: the SET and USE state it was declared
// under, then CREATE VIEW with its comment and properties over the query's
// text as its SQL file wrote it. The capability pass refuses a persisted
// view without that text (one declared in .thund).

// persistedView lowers a persisted view and its flow to one
// DefineSqlGraphElements.
func (e *emitter) persistedView(d *ir.Dataset) {
	fs := e.ownFlows[d]
	for _, f := range fs {
		e.emitted[f] = true
	}
	if len(fs) != 1 || fs[0].SQL == nil {
		e.refuse(d.Pos, "", d.Name, "a persisted view without its SQL text", "the capability pass should have refused it")
		return
	}
	f := fs[0]
	if e.target == passes.Spark41 && hasQualify(f.SQL.Query) { // window functions (window.go)
		e.refuse(d.Pos, "", d.Name, "QUALIFY in a persisted view", "a persisted view is sent as its SQL text, and Spark 4.1's parser has no QUALIFY (PARSE_SYNTAX_ERROR; 4.2 has it): filter on the window's column in an outer query, or target spark-4.2")
		return
	}
	text := viewSQL(d, f, e.catalog, e.database)
	file := d.Pos.File
	if file == "" {
		file = d.Name + ".sql"
	}
	e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_DefineSqlGraphElements_{DefineSqlGraphElements: &pb.PipelineCommand_DefineSqlGraphElements{
		SqlFilePath: proto.String(file),
		SqlText:     proto.String(text),
	}}})
	e.note(d.Pos, "", d.Name, "persisted view", passes.ActionConverted,
		"is sent as SQL text (DefineSqlGraphElements: CREATE VIEW over its query as written), as DefineOutput has no output type for a persisted view")
}

// viewSQL is the SQL text that defines a persisted view: its conf as SET
// statements, the USE state its query was written under, and CREATE VIEW.
// Under a USE, the view's name is qualified with the graph's defaults
// (catalog and database), which USE would otherwise replace.
func viewSQL(d *ir.Dataset, f *ir.Flow, catalog, database string) string {
	var b strings.Builder
	for _, kv := range append(append([]ir.KV{}, d.Conf...), f.Conf...) {
		fmt.Fprintf(&b, "SET %s = %s;\n", setPart(kv.Key), setPart(kv.Value))
	}
	cat, db := d.Catalog, d.Database
	if s := f.SQL; s.Catalog != "" || s.Database != "" {
		if s.Catalog != "" {
			fmt.Fprintf(&b, "USE CATALOG %s;\n", sqlIdent(s.Catalog))
		}
		if s.Database != "" {
			fmt.Fprintf(&b, "USE SCHEMA %s;\n", sqlIdent(s.Database))
		}
		if cat == "" {
			cat = catalog
		}
		if db == "" {
			db = database
		}
	}
	name := sqlIdent(d.Name)
	if db != "" {
		name = sqlIdent(db) + "." + name
		if cat != "" {
			name = sqlIdent(cat) + "." + name
		}
	}
	fmt.Fprintf(&b, "CREATE VIEW %s", name)
	if d.Comment != "" {
		fmt.Fprintf(&b, "\nCOMMENT %s", sqlString(d.Comment))
	}
	if len(d.Properties) > 0 {
		var props []string
		for _, kv := range d.Properties {
			props = append(props, sqlString(kv.Key)+" = "+sqlString(kv.Value))
		}
		fmt.Fprintf(&b, "\nTBLPROPERTIES (%s)", strings.Join(props, ", "))
	}
	fmt.Fprintf(&b, "\nAS %s\n", f.SQL.Query)
	return b.String()
}

// plainSet is what SET takes unquoted, as a key or a value.
var plainSet = regexp.MustCompile(`^[A-Za-z0-9_.:]+$`)

// setPart is a SET key or value: as written when plain, else back-quoted
// (Spark's SET takes back-quoted keys and values).
func setPart(s string) string {
	if plainSet.MatchString(s) {
		return s
	}
	return sqlIdent(s)
}

// sqlIdent back-quotes an identifier.
func sqlIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
