package testenv

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestUpdate(t *testing.T) {
	t.Setenv("THUNDC_UPDATE", "")
	if Update() && !*update {
		t.Error("Update() with THUNDC_UPDATE empty and no -update")
	}
	t.Setenv("THUNDC_UPDATE", "1")
	if !Update() {
		t.Error("Update() false with THUNDC_UPDATE=1")
	}
}

func TestGoEnv(t *testing.T) {
	got := map[string]bool{}
	for _, kv := range GoEnv() {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			t.Errorf("GoEnv: %q is not KEY=VALUE", kv)
		}
		got[k] = true
	}
	for _, k := range goEnvNames {
		if !got[k] {
			t.Errorf("GoEnv lacks %s", k)
		}
	}
}

// stopT records how a lane helper stopped a test (Skip or Fatal end the
// goroutine, as testing.T's do).
type stopT struct{ skipped, failed string }

func (s *stopT) Helper()        {}
func (s *stopT) Skip(a ...any)  { s.skipped = fmt.Sprint(a...); runtime.Goexit() }
func (s *stopT) Fatal(a ...any) { s.failed = fmt.Sprint(a...); runtime.Goexit() }

// call runs f as a test body would run, and returns how it stopped.
func call(f func(*stopT)) *stopT {
	s := &stopT{}
	done := make(chan struct{})
	go func() { defer close(done); f(s) }()
	<-done
	return s
}

// TestKafkaSecure: the lane's listeners come from the environment; one
// missing skips the test, or fails it under CI=true, naming the variable.
func TestKafkaSecure(t *testing.T) {
	vals := map[string]string{EnvKafkaBrokers: "h:1", EnvKafkaSASLBrokers: "h:2", EnvKafkaSSLBrokers: "h:3",
		EnvKafkaSASLSSLBrokers: "h:4", EnvKafkaSSLOtherHost: "h:5", EnvKafkaMTLSBrokers: "h:6", EnvKafkaCA: "ca.pem",
		EnvKafkaClientCert: "c.crt", EnvKafkaClientKey: "c.key", EnvKafkaUser: "u", EnvKafkaPassword: "p"}
	for k, v := range vals {
		t.Setenv(k, v)
	}
	t.Setenv("CI", "")
	var got KafkaSecureLane
	if s := call(func(s *stopT) { got = KafkaSecure(s) }); s.skipped != "" || s.failed != "" {
		t.Fatalf("stopped: %+v", s)
	}
	want := KafkaSecureLane{Brokers: "h:1", SASL: "h:2", SSL: "h:3", SASLSSL: "h:4", OtherHost: "h:5", MTLS: "h:6", CA: "ca.pem",
		ClientCert: "c.crt", ClientKey: "c.key", User: "u", Password: "p"}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	t.Setenv(EnvKafkaMTLSBrokers, "")
	if s := call(func(s *stopT) { KafkaSecure(s) }); !strings.Contains(s.skipped, EnvKafkaMTLSBrokers) || s.failed != "" {
		t.Errorf("without %s: %+v, want a skip naming it", EnvKafkaMTLSBrokers, s)
	}
	t.Setenv("CI", "true")
	if s := call(func(s *stopT) { KafkaSecure(s) }); !strings.Contains(s.failed, EnvKafkaMTLSBrokers) || s.skipped != "" {
		t.Errorf("without %s in CI: %+v, want a failure naming it", EnvKafkaMTLSBrokers, s)
	}
}

// TestPyIceberg: the python comes from the environment; without it the
// test skips, or fails under CI=true, naming the variable.
func TestPyIceberg(t *testing.T) {
	t.Setenv(EnvPyIceberg, "/venv/bin/python")
	t.Setenv("CI", "true")
	var got string
	if s := call(func(s *stopT) { got = PyIceberg(s) }); s.skipped != "" || s.failed != "" || got != "/venv/bin/python" {
		t.Fatalf("with %s set: %q, %+v", EnvPyIceberg, got, s)
	}
	t.Setenv(EnvPyIceberg, "")
	if s := call(func(s *stopT) { PyIceberg(s) }); !strings.Contains(s.failed, EnvPyIceberg) || s.skipped != "" {
		t.Errorf("without it in CI: %+v, want a failure naming it", s)
	}
	t.Setenv("CI", "")
	if s := call(func(s *stopT) { PyIceberg(s) }); !strings.Contains(s.skipped, EnvPyIceberg) || s.failed != "" {
		t.Errorf("without it: %+v, want a skip naming it", s)
	}
}

// TestSparkIceberg: a lane without a runtime skips with that reason even
// in CI; a lane that does not say fails in CI and skips outside it.
func TestSparkIceberg(t *testing.T) {
	t.Setenv(EnvSparkRemote, "sc://h:1")
	t.Setenv(EnvSparkTarget, "spark-4.2")
	t.Setenv(EnvSparkPython, "/spark/bin/python")
	t.Setenv(EnvSparkIcebergWarehouse, "/wh")
	t.Setenv(EnvSparkIceberg, "1")
	t.Setenv("CI", "true")
	var r, p, w string
	if s := call(func(s *stopT) { r, p, w = SparkIceberg(s) }); s.skipped != "" || s.failed != "" || r != "sc://h:1" || p != "/spark/bin/python" || w != "/wh" {
		t.Fatalf("with a runtime: %q %q %q, %+v", r, p, w, s)
	}
	t.Setenv(EnvSparkIceberg, "0")
	if s := call(func(s *stopT) { SparkIceberg(s) }); !strings.Contains(s.skipped, "no iceberg-spark-runtime loads on spark-4.2") || s.failed != "" {
		t.Errorf("without a runtime in CI: %+v, want a skip saying why", s)
	}
	t.Setenv(EnvSparkIceberg, "")
	if s := call(func(s *stopT) { SparkIceberg(s) }); !strings.Contains(s.failed, EnvSparkIceberg) || s.skipped != "" {
		t.Errorf("unsaid in CI: %+v, want a failure naming %s", s, EnvSparkIceberg)
	}
	t.Setenv("CI", "")
	if s := call(func(s *stopT) { SparkIceberg(s) }); !strings.Contains(s.skipped, EnvSparkIceberg) || s.failed != "" {
		t.Errorf("unsaid: %+v, want a skip naming %s", s, EnvSparkIceberg)
	}
	t.Setenv(EnvSparkIceberg, "1")
	t.Setenv(EnvSparkIcebergWarehouse, "")
	if s := call(func(s *stopT) { SparkIceberg(s) }); !strings.Contains(s.failed, EnvSparkIcebergWarehouse) {
		t.Errorf("a runtime but no warehouse: %+v, want a failure naming %s", s, EnvSparkIcebergWarehouse)
	}
}

// logT records what Size logged.
type logT struct{ logs []string }

func (l *logT) Helper()                      {}
func (l *logT) Logf(format string, a ...any) { l.logs = append(l.logs, fmt.Sprintf(format, a...)) }

func TestFullAndSize(t *testing.T) {
	for _, c := range []struct {
		full, ci string
		want     bool
	}{
		{"", "", false},
		{"1", "", true},
		{"0", "", false},
		{"", "true", true},
		{"0", "true", false},
		{"1", "true", true},
		{"yes", "", false},
	} {
		t.Setenv(EnvFull, c.full)
		t.Setenv("CI", c.ci)
		if got := Full(); got != c.want {
			t.Errorf("THUND_TEST_FULL=%q CI=%q: Full() = %v, want %v", c.full, c.ci, got, c.want)
		}
		l := &logT{}
		want := 3
		if c.want {
			want = 20
		}
		if got := Size(l, "kills", 3, 20); got != want {
			t.Errorf("THUND_TEST_FULL=%q CI=%q: Size = %d, want %d", c.full, c.ci, got, want)
		}
		if len(l.logs) != 1 || !strings.HasPrefix(l.logs[0], fmt.Sprintf("kills: %d (", want)) {
			t.Errorf("Size logged %q", l.logs)
		}
	}
}

// runM is a testing.M that records the -test.parallel it ran with.
type runM struct{ parallel string }

func (r *runM) Run() int { r.parallel = flag.Lookup("test.parallel").Value.String(); return 7 }

func TestWaitingParallel(t *testing.T) {
	f := flag.Lookup("test.parallel")
	was := f.Value.String()
	defer f.Value.Set(was)
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	m := &runM{}
	if code := WaitingParallel(m, 3); code != 7 {
		t.Errorf("WaitingParallel returned %d, not m.Run's 7", code)
	}
	want := strconv.Itoa(3 * runtime.GOMAXPROCS(0))
	if given {
		want = was // -parallel given: left as it is
	}
	if m.parallel != want {
		t.Errorf("m.Run ran with -test.parallel %s, want %s (given: %v)", m.parallel, want, given)
	}
}
