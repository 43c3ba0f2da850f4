//go:build spark

package sparkemit

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/nordisk/thund/internal/testenv"
)

// TestSparkWire checks the project's proto subset (connectpb's file
// descriptors) against the Spark Connect protocol of the lane's release:
// the descriptors of the pyspark in THUND_TEST_SPARK_PYTHON's venv, dumped
// by testdata/spark_descriptors.py. Every message, field (name, number,
// type, repeated or optional, oneof), enum value and RPC the project
// declares must be the release's. A declaration whose leading comment in
// proto/ starts with "4.2-only" (or that sits inside one) must be the
// release's on spark-4.2 and absent on spark-4.1, by number and by name.
// It needs no server: only the python.
func TestSparkWire(t *testing.T) {
	lane := testenv.Spark(t)
	if lane.Python == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(testenv.EnvSparkPython + " is not set: in CI (CI=true) the wire test needs the lane's pyspark venv")
		}
		t.Skip(testenv.EnvSparkPython + " is not set: no pyspark to compare the protocol with")
	}
	version, release := releaseProtocol(t, lane.Python)
	t.Logf("Þund's proto subset against pyspark %s (target %s)", version, lane.Target)
	w := &wireCheck{
		release: release,
		who:     "pyspark " + version,
		only42:  marked42(t, "proto"),
		is41:    lane.Target == "spark-4.1",
	}
	if len(w.only42) == 0 {
		t.Fatal(`no declaration in proto/ is marked "4.2-only": the marks are how this test tells the targets apart`)
	}
	// connectpb, which this package imports, registered its files.
	files := 0
	protoregistry.GlobalFiles.RangeFilesByPackage("spark.connect", func(fd protoreflect.FileDescriptor) bool {
		files++
		w.file(fd)
		return true
	})
	if files == 0 {
		t.Fatal("connectpb registered no spark.connect file")
	}
	for _, d := range w.diffs {
		t.Error(d)
	}
	if len(w.diffs) > 0 {
		t.Logf("%d declarations differ from %s: fix proto/ (see its README.md) and run go generate ./sparkemit/...", len(w.diffs), w.who)
	}
	t.Logf("checked %d messages, %d fields, %d enum values, %d RPCs in %d files", w.messages, w.fields, w.values, w.methods, files)
}

// releaseProtocol runs the dump script with python and links what it
// prints: pyspark's version and its spark.connect files.
func releaseProtocol(t *testing.T, python string) (string, *protoregistry.Files) {
	t.Helper()
	cmd := exec.Command(python, "testdata/spark_descriptors.py")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s testdata/spark_descriptors.py: %v\n%s", python, err, stderr.Bytes())
	}
	var dump struct {
		PySpark       string `json:"pyspark"`
		DescriptorSet string `json:"descriptor_set"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &dump); err != nil {
		t.Fatalf("spark_descriptors.py printed no JSON: %v\n%s", err, stdout.Bytes())
	}
	raw, err := base64.StdEncoding.DecodeString(dump.DescriptorSet)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		t.Fatalf("pyspark %s's descriptors do not link: %v", dump.PySpark, err)
	}
	return dump.PySpark, files
}
