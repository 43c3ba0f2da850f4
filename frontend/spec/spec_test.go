package spec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/frontend/spec"
	"github.com/nordisk/thund/ir"
)

// TestClicksProject: a SQL-only project gives the same pipeline as its
// .thund text.
func TestClicksProject(t *testing.T) {
	dir := filepath.Join("testdata", "clicks")
	proj, err := spec.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if proj.File != filepath.Join(dir, "spark-pipeline.yml") || proj.Dir != dir {
		t.Errorf("file %s dir %s", proj.File, proj.Dir)
	}
	files, diags := proj.Files()
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	want := []string{
		filepath.Join(dir, "transformations", "bronze.sql"),
		filepath.Join(dir, "transformations", "silver", "per_user.sql"),
	}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", files, want)
	}
	got, diags := proj.Pipeline()
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	thund := `pipeline clicks
catalog main
database analytics
storage "file:///var/lib/sdp/clicks"
set "spark.sql.shuffle.partitions" = "8"

streaming table clicks
  comment "clicks as they arrive"
  expect known_user: user_id is not null on violation drop
  = from stream raw_clicks

source countries from csv "data/countries.csv" options ("header" = "true") {
  code string, name string, population int32
}

materialized view clicks_per_user
  set "spark.sql.ansi.enabled" = "true"
  partitioned by (country)
  = from clicks as c
  | join countries as k on c.country = k.code
  | group by c.user_id, c.country aggregate count(*) as n

streaming table clicks_per_minute
  set "spark.sql.ansi.enabled" = "true"
  = from stream clicks
  | window tumble(ts, 1m)
  | group by window_start as minute aggregate count(*) as n
  emit on window close

source raw_clicks stream from jsonl "data/clicks/" {
  user_id int64, country string, url string, ts timestamp(us, "UTC")
  watermark ts delay 10s
}
`
	want2, d2 := dsl.Parse("clicks.thund", []byte(thund))
	if d2.HasErrors() {
		t.Fatal(d2)
	}
	if d := ir.Diff(got, want2); d != "" {
		t.Errorf("%s\ngot:\n%s", d, ir.Print(got))
	}
	if errs := ir.Validate(got); errs.HasErrors() {
		t.Errorf("the pipeline does not validate:\n%v", errs)
	}
}

// TestInitProject: the project `spark-pipelines init` writes has a Python
// example, which is an error naming the file.
func TestInitProject(t *testing.T) {
	p, diags := spec.LoadPipeline(filepath.Join("testdata", "init", "hello"))
	if p != nil {
		t.Fatal("a pipeline despite the Python file")
	}
	want := filepath.Join("testdata", "init", "hello", "transformations", "example_python_materialized_view.py") +
		": Python pipeline definitions are not supported: Thund reads SQL definitions only; write this file's datasets in a .sql file [syntax]"
	if diags.Error() != want {
		t.Errorf("got:\n%s\nwant:\n%s", diags.Error(), want)
	}
}

// write lays out a project in a temporary folder.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const okSpec = "name: p\nstorage: file:///s\nlibraries:\n  - glob:\n      include: t/**\n"

func TestSpecErrors(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string // the diagnostics, with the folder as $DIR
	}{
		{
			name:  "no spec",
			files: map[string]string{"t/a.sql": ""},
			want:  "$DIR: no pipeline spec in this folder: want spark-pipeline.yml or spark-pipeline.yaml (Spark: PIPELINE_SPEC_FILE_NOT_FOUND) [syntax]",
		},
		{
			name:  "two specs",
			files: map[string]string{"spark-pipeline.yml": okSpec, "spark-pipeline.yaml": okSpec},
			want:  "$DIR: more than one pipeline spec in this folder: spark-pipeline.yml and spark-pipeline.yaml (Spark: MULTIPLE_PIPELINE_SPEC_FILES_FOUND) [syntax]",
		},
		{
			name:  "unknown field",
			files: map[string]string{"spark-pipeline.yml": okSpec + "definitions: []\n"},
			want:  "$DIR/spark-pipeline.yml:6:1: unexpected field \"definitions\" in the pipeline spec: the fields are name, storage, catalog, database (or schema), configuration and libraries (Spark: PIPELINE_SPEC_UNEXPECTED_FIELD) [syntax]",
		},
		{
			name:  "missing required fields",
			files: map[string]string{"spark-pipeline.yml": "catalog: c\n"},
			want: "$DIR/spark-pipeline.yml:1:1: the pipeline spec has no name field (Spark: PIPELINE_SPEC_MISSING_REQUIRED_FIELD) [syntax]\n" +
				"$DIR/spark-pipeline.yml:1:1: the pipeline spec has no storage field (Spark: PIPELINE_SPEC_MISSING_REQUIRED_FIELD) [syntax]",
		},
		{
			name:  "invalid glob",
			files: map[string]string{"spark-pipeline.yml": "name: p\nstorage: s\nlibraries:\n  - glob:\n      include: t/**/*.sql\n"},
			want:  "$DIR/spark-pipeline.yml:5:16: invalid library glob \"t/**/*.sql\": write a file path, or a folder followed by /** (Spark: PIPELINE_SPEC_INVALID_GLOB_PATTERN) [syntax]",
		},
		{
			name:  "configuration value not a string",
			files: map[string]string{"spark-pipeline.yml": "name: p\nstorage: s\nconfiguration:\n  spark.sql.shuffle.partitions: 8\n"},
			want:  "$DIR/spark-pipeline.yml:4:33: configuration value of spark.sql.shuffle.partitions is a number, not a string (Spark: PIPELINE_SPEC_DICT_VALUE_NOT_STRING): quote it, as in spark.sql.shuffle.partitions: \"8\" [syntax]",
		},
		{
			name:  "configuration not a map",
			files: map[string]string{"spark-pipeline.yml": "name: p\nstorage: s\nconfiguration: [a]\n"},
			want:  "$DIR/spark-pipeline.yml:3:16: configuration must be a map of string keys to string values, not a list (Spark: PIPELINE_SPEC_FIELD_NOT_DICT) [syntax]",
		},
		{
			name:  "unknown thund configuration key",
			files: map[string]string{"spark-pipeline.yml": "name: p\nstorage: s\nconfiguration:\n  thund.sources.x: y\n"},
			want:  "$DIR/spark-pipeline.yml:4:3: unknown configuration key thund.sources.x: the thund.* configuration keys are thund.source.<name> [syntax]",
		},
		{
			name:  "bad library entries",
			files: map[string]string{"spark-pipeline.yml": "name: p\nstorage: s\nlibraries:\n  - file: x.sql\n  - glob:\n      include: t/**\n      exclude: t/old/**\n"},
			want: "$DIR/spark-pipeline.yml:4:5: unexpected library field \"file\": a library is 'glob: {include: PATTERN}' [syntax]\n" +
				"$DIR/spark-pipeline.yml:7:7: unexpected glob field \"exclude\": a glob has only include: PATTERN [syntax]",
		},
		{
			name:  "not YAML",
			files: map[string]string{"spark-pipeline.yml": "name: p\nstorage: [\n"},
			want:  "$DIR/spark-pipeline.yml:2:1: the pipeline spec is not valid YAML: did not find expected node content [syntax]",
		},
		{
			name:  "python and other files",
			files: map[string]string{"spark-pipeline.yml": okSpec, "t/a.sql": "CREATE MATERIALIZED VIEW a AS SELECT 1 AS x", "t/b.py": "", "t/notes.txt": "", "t/__pycache__/b.pyc": ""},
			want: "$DIR/t/b.py: Python pipeline definitions are not supported: Thund reads SQL definitions only; write this file's datasets in a .sql file [syntax]\n" +
				"$DIR/t/notes.txt: unsupported definitions file: want .sql (Spark: PIPELINE_UNSUPPORTED_DEFINITIONS_FILE_EXTENSION) [syntax]",
		},
		{
			name:  "SQL errors are positioned in their files",
			files: map[string]string{"spark-pipeline.yml": okSpec, "t/a.sql": "CREATE MATERIALIZED VIEW a AS\n  SELECT x FROM t PIVOT (sum(x) FOR y IN (1))"},
			want:  "$DIR/t/a.sql:2:19: PIVOT is not supported in pipeline SQL [syntax]",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := write(t, c.files)
			_, diags := spec.LoadPipeline(dir)
			got := strings.ReplaceAll(diags.Error(), dir, "$DIR")
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// TestSpecFields: every field, the schema alias, a spec given as a file,
// YAML anchors, and the plain-path glob rule.
func TestSpecFields(t *testing.T) {
	dir := write(t, map[string]string{
		"my.yaml": `name: &n p1
storage: s3://bucket/p
catalog: cat
schema: sch
configuration:
  a: "1"
  b: x
libraries:
  - glob:
      include: defs/one.sql
  - glob:
      include: defs/**
  - glob:
      include: missing.sql
`,
		"defs/one.sql": "CREATE MATERIALIZED VIEW one AS SELECT 1 AS x",
		"defs/two.sql": "CREATE MATERIALIZED VIEW two AS SELECT * FROM cat.sch.one",
	})
	proj, err := spec.Load(filepath.Join(dir, "my.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if proj.Name != "p1" || proj.Storage != "s3://bucket/p" || proj.Catalog != "cat" || proj.Database != "sch" {
		t.Errorf("%+v", proj)
	}
	p, diags := proj.Pipeline()
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := strings.ReplaceAll(diags.Error(), dir, "$DIR"); got != `$DIR/my.yaml:14:16: warning: library "missing.sql" names no file [syntax]` {
		t.Errorf("warnings: %s", got)
	}
	if len(p.Datasets) != 2 || p.Datasets[0].Name != "one" || p.Datasets[1].Name != "two" {
		t.Fatalf("datasets: %s", ir.Print(p))
	}
	if s := ir.Scans(p.Flows[1].Query)[0]; s.Name != "one" {
		t.Errorf("two reads %q", s.Name)
	}
	if len(p.Conf) != 2 || p.Conf[0].Key != "a" || p.Conf[1].Value != "x" || p.Name != "p1" || p.Catalog != "cat" || p.Database != "sch" {
		t.Errorf("pipeline header: %s", ir.Print(p))
	}
}
