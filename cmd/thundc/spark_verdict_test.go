//go:build spark

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/sparkemit"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// The verdicts of the Spark lane: small SQL pipelines, one per behaviour
// that Spark's own SqlPipelineSuite pins down (registration, partition
// columns, table properties, SET, external tables, subqueries, quoted
// names, duplicate names across files, partition transforms, LOCATION),
// plus the constructs thund lowers itself (persisted views, CLUSTER BY,
// keywords as names), accepted and refused ones. Each case states Spark's
// verdict, and the test asserts three:
//
//   - thund's: thundc check --target <lane target> accepts, or refuses with
//     an error naming the expected Spark error class or message;
//   - the server's on the SQL text: the files sent whole as
//     DefineSqlGraphElements, then a dry StartRun, so the server parses,
//     resolves and validates them itself;
//   - the server's on thund's lowering, when thund accepts: thundc spark run
//     --dry-run (DefineOutput and DefineFlow).
//
// A verdict is "" (accepted) or a text the refusal contains, compared
// case-insensitively. Where the releases differ, a verdict is keyed by
// target; where thund cannot know what the server knows (what its catalog
// holds), the case says so.

// verdict is a verdict per target: the "" key is every target's, a target's
// own key overrides it.
type verdict map[string]string

// of is the verdict for a target.
func (v verdict) of(target string) string {
	if s, ok := v[target]; ok {
		return s
	}
	return v[""]
}

// accepted is every target's acceptance.
var accepted = verdict{}

// refusedWith is every target's refusal, containing s.
func refusedWith(s string) verdict { return verdict{"": s} }

// verdictCase is one pipeline of SQL files, and what Spark says of it.
type verdictCase struct {
	name string
	// files are the pipeline's SQL files, in order: name, text, name,
	// text, ... In a text, {db} is the case's database.
	files []string
	// spark is the server's verdict on the SQL text.
	spark verdict
	// thund, when set, is thundc check's verdict where it differs from
	// the server's (nil: the same as spark).
	thund verdict
	// lowered, when set, is the server's verdict on thund's lowering where
	// it differs from its verdict on the SQL text (nil: the same as spark).
	lowered verdict
	// why says why thund's or the lowering's verdict differs from Spark's.
	why string
}

var verdictCases = []verdictCase{
	// registration
	{name: "registration", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW totals AS SELECT 7 AS n;
CREATE STREAMING TABLE events AS SELECT * FROM STREAM ext_a;
CREATE FLOW more_events AS INSERT INTO events BY NAME SELECT * FROM STREAM ext_b;
`}},
	{name: "persisted_view", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW totals AS SELECT 7 AS n;
CREATE VIEW recent COMMENT 'kept as text' AS SELECT n FROM totals WHERE n > 1;
`}},
	{name: "persisted_view_reads_temporary", spark: refusedWith("INVALID_TEMP_OBJ_REFERENCE"), files: []string{"a.sql", `
CREATE TEMPORARY VIEW scratch AS SELECT 1 AS x;
CREATE VIEW exposed AS SELECT * FROM scratch;
`}},
	{name: "batch_into_streaming_table", spark: refusedWith("INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE"), files: []string{"a.sql", `
CREATE STREAMING TABLE st AS SELECT 1 AS one;
`}},
	{name: "stream_into_materialized_view", spark: refusedWith("INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW"), files: []string{"a.sql", `
CREATE MATERIALIZED VIEW snap AS SELECT * FROM STREAM ext_a;
`}},
	{name: "streaming_table_without_flow", spark: refusedWith("PIPELINE_DATASET_WITHOUT_FLOW"), files: []string{"a.sql", `
CREATE STREAMING TABLE lonely;
`}},
	{name: "multipart_flow_name", spark: refusedWith("MULTIPART_FLOW_NAME_NOT_SUPPORTED"), files: []string{"a.sql", `
CREATE STREAMING TABLE sink_st;
CREATE FLOW other_db.feed AS INSERT INTO sink_st BY NAME SELECT * FROM STREAM ext_a;
`}},
	{name: "qualified_temporary_view", spark: verdict{"spark-4.1": "TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS", "spark-4.2": "INVALID_TEMP_OBJ_QUALIFIER"}, files: []string{"a.sql", `
CREATE TEMPORARY VIEW other_db.tv AS SELECT 1 AS x;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM other_db.tv;
`}},
	{name: "create_table", spark: refusedWith("Unsupported plan"), thund: refusedWith("CREATE TABLE is not supported"),
		why: "thund names the statement it refuses", files: []string{"a.sql", `
CREATE TABLE plain AS SELECT 1 AS x;
`}},

	// partition columns
	{name: "partition_columns", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW parts PARTITIONED BY (k1, k2) AS SELECT id AS k1, id * 2 AS k2 FROM range(1, 3);
`}},
	{name: "partitioned_table_streams_partitioned_view", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW src PARTITIONED BY (m) AS SELECT id, id % 2 AS m FROM range(4);
CREATE STREAMING TABLE copy PARTITIONED BY (m) AS SELECT * FROM STREAM(src);
`}},
	{name: "partition_transform", spark: refusedWith("Invalid partitioning transform"), files: []string{"a.sql", `
CREATE MATERIALIZED VIEW by_year PARTITIONED BY (year(d)) AS SELECT DATE'2024-01-02' AS d;
`}},

	// clustering columns: both releases' DefineOutput takes them, while
	// their SQL registration still refuses CLUSTER BY
	{name: "cluster_by", spark: refusedWith("Invalid partitioning transform (cluster_by(a, b))"), thund: accepted, lowered: accepted,
		why: "the 4.1 and 4.2 servers' SQL registration reads CLUSTER BY as a partition transform, yet their DefineOutput takes clustering_columns, which thund lowers it to", files: []string{"a.sql", `
CREATE MATERIALIZED VIEW clustered CLUSTER BY (a, b) AS SELECT id AS a, id + 1 AS b FROM range(3);
`}},
	{name: "cluster_by_and_partitioned_by", spark: refusedWith("SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED"), files: []string{"a.sql", `
CREATE MATERIALIZED VIEW both_ CLUSTER BY (a) PARTITIONED BY (a) AS SELECT id AS a FROM range(3);
`}},

	// table properties
	{name: "table_properties", spark: accepted, files: []string{"a.sql", `
CREATE STREAMING TABLE tagged TBLPROPERTIES ('tier' = 'gold', 'team.name' = 'ops') AS SELECT * FROM STREAM ext_a;
`}},
	{name: "reserved_table_property", spark: refusedWith("UNSUPPORTED_FEATURE.SET_TABLE_PROPERTY"), files: []string{"a.sql", `
CREATE STREAMING TABLE owned TBLPROPERTIES ('owner' = 'ops') AS SELECT * FROM STREAM ext_a;
`}},

	// confs
	{name: "set_conf", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW first_mv AS SELECT id FROM range(2);
SET my.flag = on;
CREATE MATERIALIZED VIEW second_mv AS SELECT id FROM range(2);
SET my.flag = off;
SET my.other = 3;
CREATE STREAMING TABLE third_st AS SELECT * FROM STREAM ext_a;
`}},

	// external tables
	{name: "external_unqualified", spark: accepted, files: []string{"a.sql", `
CREATE STREAMING TABLE copied AS SELECT * FROM STREAM ext_a;
CREATE MATERIALIZED VIEW snap AS SELECT * FROM ext_b;
`}},
	{name: "external_qualified", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW snap AS SELECT * FROM {db}.ext_b;
CREATE STREAMING TABLE copied AS SELECT * FROM STREAM({db}.ext_a);
`}},
	{name: "external_missing", spark: refusedWith("Failed to resolve flows"), thund: accepted,
		why: "what the catalog holds is the server's to know", files: []string{"a.sql", `
CREATE MATERIALIZED VIEW snap AS SELECT * FROM no_such_table;
`}},

	// subqueries
	{name: "subquery_in_cte", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW base AS SELECT 2 AS v;
CREATE MATERIALIZED VIEW nested AS WITH outer_q AS (WITH inner_q AS (SELECT * FROM base) SELECT * FROM inner_q) SELECT * FROM outer_q;
`}},
	{name: "scalar_subquery", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT * FROM range(6);
CREATE MATERIALIZED VIEW top AS SELECT * FROM range(6) WHERE id = (SELECT max(id) FROM nums);
`}},
	{name: "in_subquery", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT * FROM range(6);
CREATE MATERIALIZED VIEW some AS SELECT * FROM range(10) WHERE id IN (SELECT id * 2 FROM nums) AND id NOT IN (SELECT 4);
`}},
	{name: "correlated_subquery", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT * FROM range(6);
CREATE MATERIALIZED VIEW cor AS SELECT * FROM range(6) r WHERE r.id = (SELECT max(n.id) FROM nums n WHERE n.id < r.id);
`}},

	// expectations: OSS Spark's SQL has none (checked on 4.1.4, 4.2.1 and,
	// by hand, 4.3.0), so thund refuses them unless --expectations filter
	{name: "expectation", spark: refusedWith("PARSE_SYNTAX_ERROR"), thund: refusedWith("is not part of OSS Spark"),
		why: "thund names the feature where Spark's parser stops at EXPECT", files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT * FROM range(6);
CREATE MATERIALIZED VIEW pos (CONSTRAINT positive EXPECT (id > 0) ON VIOLATION DROP ROW) AS SELECT * FROM nums;
`}},

	// quoted names and keywords
	{name: "quoted_names", spark: accepted, files: []string{"a.sql", "CREATE MATERIALIZED VIEW `dash-one` AS SELECT * FROM range(1, 4);\nCREATE MATERIALIZED VIEW `dash-two` AS SELECT * FROM `dash-one`;\n"}},
	{name: "keyword_as_name", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW table AS SELECT 1 AS x;
CREATE MATERIALIZED VIEW reader AS SELECT * FROM table;
`}},

	// duplicate names across files
	{name: "duplicate_output_across_files", spark: refusedWith("PIPELINE_DUPLICATE_IDENTIFIERS.OUTPUT"), files: []string{
		"a.sql", "CREATE STREAMING TABLE table;\n",
		"b.sql", "CREATE VIEW table AS SELECT 1;\n"}},
	{name: "duplicate_flow_across_files", spark: refusedWith("PIPELINE_DUPLICATE_IDENTIFIERS.FLOW"), files: []string{
		"a.sql", "CREATE STREAMING TABLE sink_st;\nCREATE FLOW feed AS INSERT INTO sink_st BY NAME SELECT * FROM STREAM ext_a;\n",
		"b.sql", "CREATE FLOW feed AS INSERT INTO sink_st BY NAME SELECT * FROM STREAM ext_b;\n"}},

	// window functions: QUALIFY is parsed by 4.2 only; thund desugars it
	// to a filter over the projection, which both releases run, except in
	// a persisted view, which is sent as its text
	{name: "window_functions", spark: accepted, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT id, id % 3 AS g FROM range(9);
CREATE MATERIALIZED VIEW ranked AS SELECT id, rank() OVER w AS r, lag(id) IGNORE NULLS OVER w AS p,
  sum(id) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM nums WINDOW w AS (PARTITION BY g ORDER BY id);
CREATE MATERIALIZED VIEW grouped AS SELECT g, sum(id) AS t, dense_rank() OVER (ORDER BY sum(id) DESC) AS r FROM nums GROUP BY g;
`}},
	{name: "qualify", spark: verdict{"spark-4.1": "PARSE_SYNTAX_ERROR", "spark-4.2": ""}, thund: accepted, lowered: accepted,
		why: "thund desugars QUALIFY to a filter over the projection, a relation both releases run", files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT id, id % 3 AS g FROM range(9);
CREATE MATERIALIZED VIEW firsts AS SELECT id, g FROM nums QUALIFY row_number() OVER (PARTITION BY g ORDER BY id) = 1;
`}},
	{name: "qualify_in_persisted_view", spark: verdict{"spark-4.1": "PARSE_SYNTAX_ERROR", "spark-4.2": ""},
		thund: verdict{"spark-4.1": "QUALIFY in a persisted view", "spark-4.2": ""}, files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT id, id % 3 AS g FROM range(9);
CREATE VIEW firsts AS SELECT id, g FROM nums QUALIFY row_number() OVER (PARTITION BY g ORDER BY id) = 1;
`}},
	{name: "window_without_order", spark: refusedWith("Failed to resolve flows"), thund: refusedWith("requires window to be ordered"),
		why: "the server's dry run names only the flow; thund names the rule (Spark's analyzer: requires window to be ordered)", files: []string{"a.sql", `
CREATE MATERIALIZED VIEW nums AS SELECT id FROM range(3);
CREATE MATERIALIZED VIEW ranked AS SELECT id, rank() OVER (PARTITION BY id) AS r FROM nums;
`}},
	{name: "window_over_stream", spark: accepted, thund: refusedWith("NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING"),
		why: "a dry run does not start the stream; starting it fails with NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING (checked on 4.1.4 with a rate stream), which thund says at check time", files: []string{"a.sql", `
CREATE STREAMING TABLE numbered AS SELECT id, row_number() OVER (ORDER BY id) AS n FROM STREAM ext_a;
`}},

	// LOCATION
	{name: "location", spark: refusedWith("Specifying location is not supported"), files: []string{"a.sql", `
CREATE STREAMING TABLE placed LOCATION '/tmp/somewhere' AS SELECT * FROM STREAM ext_a;
`}},
}

// TestSparkVerdicts asserts, per case, thund's verdict and the lane
// server's, on the SQL text and on thund's lowering.
func TestSparkVerdicts(t *testing.T) {
	lane := testenv.Spark(t)
	thundc := laneThundc(t)
	remote, conn := laneConn(t, lane)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const db = "lane_verdicts"
	for _, q := range []string{
		"DROP DATABASE IF EXISTS " + db + " CASCADE",
		"CREATE DATABASE " + db,
		"CREATE TABLE " + db + ".ext_a AS SELECT * FROM range(3)",
		"CREATE TABLE " + db + ".ext_b AS SELECT * FROM range(4)",
	} {
		if _, err := sparkemit.Query(ctx, conn, remote, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range verdictCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for i := 0; i+1 < len(c.files); i += 2 {
				p := filepath.Join(dir, c.files[i])
				text := strings.ReplaceAll(c.files[i+1], "{db}", db)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			spark := c.spark.of(lane.Target)
			thund := spark
			if c.thund != nil {
				thund = c.thund.of(lane.Target)
			}
			lowered := spark
			if c.lowered != nil {
				lowered = c.lowered.of(lane.Target)
			}

			// thund's verdict
			args := append([]string{"check", "--target", lane.Target}, paths...)
			out, err := runThundc(dir, thundc, args...)
			expectVerdict(t, "thundc check", thund, err, out, c.why)

			// the server's, on the SQL text
			err = sqlElementsDryRun(ctx, conn, remote, db, dir, paths)
			expectVerdict(t, "the server, on the SQL files", spark, err, "", c.why)

			// the server's, on thund's lowering
			if thund == "" {
				args := append([]string{"spark", "run", "--remote", lane.Remote, "--target", lane.Target,
					"--database", db, "--storage", "file://" + filepath.Join(dir, "storage"), "--dry-run"}, paths...)
				out, err := runThundc(dir, thundc, args...)
				expectVerdict(t, "the server, on thund's lowering", lowered, err, out, c.why)
			}
		})
	}
}

// runThundc runs thundc in dir; its error is non-nil when it failed, and
// out is its stderr and stdout.
func runThundc(dir, thundc string, args ...string) (string, error) {
	cmd := exec.Command(thundc, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}

// sqlElementsDryRun sends SQL files whole, as the reference client does
// (CreateDataflowGraph, one DefineSqlGraphElements per file, a dry
// StartRun), and returns the server's refusal, if any.
func sqlElementsDryRun(ctx context.Context, conn *grpc.ClientConn, remote *sparkemit.Remote, db, dir string, paths []string) error {
	var reqs []*pb.ExecutePlanRequest
	add := func(cmd *pb.PipelineCommand) {
		reqs = append(reqs, &pb.ExecutePlanRequest{
			UserContext: &pb.UserContext{UserId: "thund"},
			Plan:        &pb.Plan{OpType: &pb.Plan_Command{Command: &pb.Command{CommandType: &pb.Command_PipelineCommand{PipelineCommand: cmd}}}},
		})
	}
	add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_CreateDataflowGraph_{CreateDataflowGraph: &pb.PipelineCommand_CreateDataflowGraph{
		DefaultDatabase: proto.String(db),
	}}})
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_DefineSqlGraphElements_{DefineSqlGraphElements: &pb.PipelineCommand_DefineSqlGraphElements{
			SqlFilePath: proto.String(filepath.Base(p)),
			SqlText:     proto.String(string(text)),
		}}})
	}
	add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_StartRun_{StartRun: &pb.PipelineCommand_StartRun{
		Dry:     proto.Bool(true),
		Storage: proto.String("file://" + filepath.Join(dir, "sql-storage")),
	}}})
	return sparkemit.Run(ctx, conn, remote, reqs, nil)
}

// expectVerdict checks one verdict: want "" is acceptance (err nil), any
// other want a refusal whose text (err and out) contains it.
func expectVerdict(t *testing.T, who, want string, err error, out, why string) {
	t.Helper()
	text := out
	if err != nil {
		text = err.Error() + "\n" + out
	}
	note := ""
	if why != "" {
		note = " (" + why + ")"
	}
	switch {
	case want == "" && err != nil:
		t.Errorf("%s refused, want it accepted%s:\n%s", who, note, text)
	case want != "" && err == nil:
		t.Errorf("%s accepted, want a refusal with %q%s:\n%s", who, want, note, text)
	case want != "" && !strings.Contains(strings.ToLower(text), strings.ToLower(want)):
		t.Errorf("%s refused without %q%s:\n%s", who, want, note, text)
	}
}
