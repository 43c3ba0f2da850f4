//go:build spark

package passes

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
)

// TestSparkFunctionList: the committed SHOW SYSTEM FUNCTIONS data of the
// lane's target (spark_functions_4.1.txt or _4.2.txt) is the live server's
// list; THUNDC_UPDATE=1 rewrites the file from the server.
func TestSparkFunctionList(t *testing.T) {
	lane := testenv.Spark(t)
	if lane.Python == "" {
		t.Fatal(testenv.EnvSparkPython + " is not set: the list is read with the lane's pyspark")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lane.Python, "testdata/spark_functions.py", lane.Remote)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s testdata/spark_functions.py: %v\n%s", lane.Python, err, stderr.Bytes())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	version, names := lines[0], lines[1:]
	minor := strings.TrimPrefix(lane.Target, "spark-")
	path := "spark_functions_" + minor + ".txt"
	var b strings.Builder
	fmt.Fprintf(&b, "# The names SHOW SYSTEM FUNCTIONS lists on Spark %s (its built-in functions and operators), one a line.\n"+
		"# Made from a live server by TestSparkFunctionList (passes/sparkfuncs_spark_test.go, build tag spark):\n"+
		"#   THUND_TEST_SPARK_REMOTE=sc://... THUND_TEST_SPARK_TARGET=%s THUND_TEST_SPARK_PYTHON=... \\\n"+
		"#   THUNDC_UPDATE=1 go test -tags spark ./passes -run TestSparkFunctionList\n", version, lane.Target)
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	if testenv.Update() {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed := map[string][]string{"4.1": sparkBuiltins41, "4.2": sparkBuiltins42}[minor]
	data := map[string]string{"4.1": sparkFunctions41, "4.2": sparkFunctions42}[minor]
	if sparkVersion(data) != version || !slices.Equal(committed, names) {
		t.Errorf("%s (Spark %s, %d names) is not the server's list (Spark %s, %d names): rerun with THUNDC_UPDATE=1, then give each new name a state (TestSparkNamesAccounted)",
			path, sparkVersion(data), len(committed), version, len(names))
	}
}
