package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
)

// update is the -update test flag. It is registered on the default flag set
// when a test binary imports this package, and parsed by the testing package.
var update = flag.Bool("update", false, "rewrite golden files from the actual output (same as THUNDC_UPDATE=1)")

// Update reports whether goldens should be rewritten: the -update flag was
// given, or THUNDC_UPDATE=1 is set. Call it after flag parsing (from a test
// or after testing.M.Run has started), not from TestMain before m.Run.
func Update() bool {
	return *update || os.Getenv("THUNDC_UPDATE") == "1"
}

// EnvFull switches the slow suites between their full and their reduced
// form (see Full).
const EnvFull = "THUND_TEST_FULL"

// Full reports whether the slow suites (the kill -9 suite, the random
// streaming equivalence cases; docs/testing.md lists them) run in full: with
// THUND_TEST_FULL=1, or under CI=true unless THUND_TEST_FULL=0. Otherwise,
// as in the README's `go test ./...`, they run a reduced form: fewer kills,
// rounds and random cases, never fewer kinds of check. .ci/run sets
// THUND_TEST_FULL=1, so CI runs every suite in full. It is the one place
// that decides; tests ask it through Size or Full, never the variable.
func Full() bool {
	switch os.Getenv(EnvFull) {
	case "1":
		return true
	case "":
		return os.Getenv("CI") == "true"
	}
	return false
}

// WaitingParallel is testing.M's Run for a package whose parallel tests
// mostly wait: on the child processes they run and on the disk (each
// commit fsyncs), not on the test binary's CPU. Unless -parallel (or
// -test.parallel) is given, it runs factor times GOMAXPROCS of them at once
// rather than GOMAXPROCS, then calls m.Run. Call it from TestMain; it parses
// the test flags.
func WaitingParallel(m interface{ Run() int }, factor int) int {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if f := flag.Lookup("test.parallel"); f != nil && !given {
		f.Value.Set(strconv.Itoa(factor * runtime.GOMAXPROCS(0)))
	}
	return m.Run()
}

// Size returns full when the suites run in full (Full), else reduced, and
// logs which, so that a test's output says which form ran. what names the
// quantity ("kills per scenario").
func Size(t interface {
	Helper()
	Logf(string, ...any)
}, what string, reduced, full int) int {
	t.Helper()
	if Full() {
		t.Logf("%s: %d (full: %s=1)", what, full, EnvFull)
		return full
	}
	t.Logf("%s: %d (reduced; %s=1 runs %d)", what, reduced, EnvFull, full)
	return reduced
}

// goEnvNames are the Go settings a script needs for a warm `go build`.
var goEnvNames = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS"}

var goEnv = sync.OnceValue(func() []string {
	vals := map[string]string{}
	var missing []string
	for _, k := range goEnvNames {
		if v, ok := os.LookupEnv(k); ok {
			vals[k] = v
		} else {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		// Without a go command the variables stay unset, and scripts that
		// build will say so.
		out, err := exec.Command("go", append([]string{"env", "-json"}, missing...)...).Output()
		var fromGo map[string]string
		if err == nil && json.Unmarshal(out, &fromGo) == nil {
			for _, k := range missing {
				if v, ok := fromGo[k]; ok {
					vals[k] = v
				}
			}
		}
	}
	var out []string
	for _, k := range goEnvNames {
		if v, ok := vals[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
})

// GoEnv returns KEY=VALUE pairs for GOCACHE, GOMODCACHE, GOPATH, GOPROXY and
// GOFLAGS, taken from the environment or, when unset there, from `go env`
// (computed once). Append them to a script's environment in
// testscript.Params.Setup; HOME stays /no-home.
func GoEnv() []string { return goEnv() }

// ThundCache returns the THUND_CACHE setting for scripts that build
// pipelines: $THUND_CACHE when set, else one folder under the system temp
// dir shared by every test run, so a pipeline built by one script is a cache
// hit for the next.
func ThundCache() string {
	if v := os.Getenv("THUND_CACHE"); v != "" {
		return v
	}
	return filepath.Join(os.TempDir(), "thund-test-cache")
}

// Thundc builds cmd/thundc of the module whose root is root (relative to
// the test's folder, such as "../..") and returns the executable's path,
// for tests that run thundc as a program. It goes to a folder of the
// tests' cache (ThundCache) named after the checkout and the calling
// package, and stays there: `go build -o` relinks it only when it is stale,
// so a warm run costs the go command's staleness check (under a second),
// not a link of thundc (several seconds, each time, into a new temporary
// folder). One folder per package: go test runs several packages at once,
// and one must not replace an executable another is running.
func Thundc(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(abs + "\x00" + wd))
	dir := filepath.Join(ThundCache(), "thundc", hex.EncodeToString(h[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "thundc")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/thundc")
	cmd.Dir = abs
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build thundc: %v\n%s", err, out)
	}
	return bin, nil
}

// S3 test lane (build tag s3): the environment variables that point tests at
// a real S3-compatible server.
const (
	EnvS3Endpoint = "THUND_TEST_S3_ENDPOINT" // the server's URL, e.g. http://127.0.0.1:7390
	EnvS3Bucket   = "THUND_TEST_S3_BUCKET"   // a bucket the tests may write in (default thund-test)
)

// S3Lane is the S3 test lane's server, from THUND_TEST_S3_ENDPOINT and
// THUND_TEST_S3_BUCKET; credentials come from AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY (or the rest of the SDK's standard chain).
type S3Lane struct {
	Endpoint string
	Bucket   string
}

// S3 returns the lane's server. Without THUND_TEST_S3_ENDPOINT the test is
// skipped, except in CI (CI=true), where it fails: the lane must not pass
// by testing nothing.
func S3(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) S3Lane {
	t.Helper()
	ep := os.Getenv(EnvS3Endpoint)
	if ep == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(EnvS3Endpoint + " is not set: in CI (CI=true) the S3 lane needs a server (.ci/run starts one)")
		}
		t.Skip(EnvS3Endpoint + " is not set: no S3 server to test against (see internal/testenv)")
	}
	b := os.Getenv(EnvS3Bucket)
	if b == "" {
		b = "thund-test"
	}
	return S3Lane{Endpoint: ep, Bucket: b}
}

// EnvKafkaBrokers points the Kafka test lane (build tag kafka) at a real
// broker: host:port of its bootstrap listener.
const EnvKafkaBrokers = "THUND_TEST_KAFKA_BROKERS"

// Kafka returns the lane's bootstrap servers. Without THUND_TEST_KAFKA_BROKERS
// the test is skipped, except in CI (CI=true), where it fails: the lane must
// not pass by testing nothing.
func Kafka(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) string {
	t.Helper()
	b := os.Getenv(EnvKafkaBrokers)
	if b == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(EnvKafkaBrokers + " is not set: in CI (CI=true) the Kafka lane needs a broker (.ci/run starts one)")
		}
		t.Skip(EnvKafkaBrokers + " is not set: no Kafka broker to test against (see internal/testenv)")
	}
	return b
}

// KafkaTopicConfigs is the configuration of every topic a test creates:
// kept forever. The tests' records carry event times months in the past, and
// a broker's time retention (a week by default, checked every five minutes)
// would delete them in the middle of a test, which a run then reports, rightly,
// as data loss.
func KafkaTopicConfigs() map[string]*string {
	forever := "-1"
	return map[string]*string{"retention.ms": &forever, "retention.bytes": &forever}
}

// The Kafka lane's secured listeners, on the same broker as
// THUND_TEST_KAFKA_BROKERS (.ci/kafka-broker starts them all).
const (
	EnvKafkaSASLBrokers    = "THUND_TEST_KAFKA_SASL_BROKERS"           // SASL_PLAINTEXT: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
	EnvKafkaSSLBrokers     = "THUND_TEST_KAFKA_SSL_BROKERS"            // SSL, a certificate for 127.0.0.1 and localhost
	EnvKafkaSASLSSLBrokers = "THUND_TEST_KAFKA_SASL_SSL_BROKERS"       // SASL_SSL, the same mechanisms and certificate
	EnvKafkaSSLOtherHost   = "THUND_TEST_KAFKA_SSL_OTHER_HOST_BROKERS" // SSL, a certificate naming other.invalid only
	EnvKafkaMTLSBrokers    = "THUND_TEST_KAFKA_MTLS_BROKERS"           // SSL, wanting a client certificate signed by the CA
	EnvKafkaClientCert     = "THUND_TEST_KAFKA_CLIENT_CERT"            // PEM file of a client certificate signed by the CA
	EnvKafkaClientKey      = "THUND_TEST_KAFKA_CLIENT_KEY"             // PEM file of its private key (PKCS#8)
	EnvKafkaCA             = "THUND_TEST_KAFKA_CA"                     // PEM file of the CA that signed both certificates
	EnvKafkaUser           = "THUND_TEST_KAFKA_USER"                   // a user every SASL mechanism knows
	EnvKafkaPassword       = "THUND_TEST_KAFKA_PASSWORD"               // its password
)

// KafkaSecureLane is the Kafka lane's broker with its secured listeners.
type KafkaSecureLane struct {
	Brokers               string // PLAINTEXT, for the tests' own admin clients
	SASL                  string // SASL_PLAINTEXT
	SSL                   string // SSL
	SASLSSL               string // SASL_SSL
	OtherHost             string // SSL with a certificate that does not name the address
	MTLS                  string // SSL wanting a client certificate
	CA                    string // the CA's PEM file
	ClientCert, ClientKey string // PEM files of a client certificate the CA signed, and its key
	User                  string
	Password              string
}

// KafkaSecure returns the lane's secured listeners. Without them (a broker
// started by an older .ci/kafka-broker, or none) the test is skipped, except
// in CI (CI=true), where it fails.
func KafkaSecure(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) KafkaSecureLane {
	t.Helper()
	l := KafkaSecureLane{Brokers: Kafka(t)}
	for _, v := range []struct {
		dst *string
		env string
	}{{&l.SASL, EnvKafkaSASLBrokers}, {&l.SSL, EnvKafkaSSLBrokers}, {&l.SASLSSL, EnvKafkaSASLSSLBrokers},
		{&l.OtherHost, EnvKafkaSSLOtherHost}, {&l.MTLS, EnvKafkaMTLSBrokers}, {&l.CA, EnvKafkaCA},
		{&l.ClientCert, EnvKafkaClientCert}, {&l.ClientKey, EnvKafkaClientKey}, {&l.User, EnvKafkaUser}, {&l.Password, EnvKafkaPassword}} {
		if *v.dst = os.Getenv(v.env); *v.dst == "" {
			if os.Getenv("CI") == "true" {
				t.Fatal(v.env + " is not set: in CI (CI=true) the Kafka lane needs the broker's secured listeners (.ci/kafka-broker)")
			}
			t.Skip(v.env + " is not set: the broker has no secured listeners to test against (see internal/testenv)")
		}
	}
	return l
}

// Spark test lane (build tag spark): the environment variables that point
// tests at a real Spark Connect server.
const (
	EnvSparkRemote = "THUND_TEST_SPARK_REMOTE" // the server's connection string, e.g. sc://127.0.0.1:15041
	EnvSparkTarget = "THUND_TEST_SPARK_TARGET" // the thundc target the server runs: spark-4.1 or spark-4.2
	EnvSparkPython = "THUND_TEST_SPARK_PYTHON" // the python of the server's pyspark venv (its protobuf descriptors)
)

// SparkLane is the Spark test lane's server.
type SparkLane struct {
	Remote string // sc://host:port
	Target string // spark-4.1 or spark-4.2
	Python string // the venv's python, with the same pyspark as the server; "" when not given
}

// Spark returns the lane's server. Without THUND_TEST_SPARK_REMOTE the test
// is skipped, except in CI (CI=true), where it fails: the lane must not
// pass by testing nothing.
func Spark(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) SparkLane {
	t.Helper()
	r := os.Getenv(EnvSparkRemote)
	if r == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(EnvSparkRemote + " is not set: in CI (CI=true) the Spark lane needs a server (.ci/spark-lane starts one)")
		}
		t.Skip(EnvSparkRemote + " is not set: no Spark Connect server to test against (see internal/testenv)")
	}
	target := os.Getenv(EnvSparkTarget)
	if target != "spark-4.1" && target != "spark-4.2" {
		t.Fatal(EnvSparkTarget + " must be spark-4.1 or spark-4.2, not " + strconv.Quote(target))
	}
	return SparkLane{Remote: r, Target: target, Python: os.Getenv(EnvSparkPython)}
}

// Iceberg test lanes: other engines' Iceberg readers and writers
// (internal/icebergcheck).
const (
	// EnvPyIceberg is the python of a venv with pyiceberg (.ci/pyiceberg
	// prints it): the Iceberg lane (build tag iceberg, tests named
	// *Iceberg*).
	EnvPyIceberg = "THUND_TEST_PYICEBERG"
	// EnvSparkIceberg says whether the Spark lane's server has
	// iceberg-spark-runtime on its class path: 1, or 0 when no runtime
	// loads on its Spark release (.ci/spark-versions).
	EnvSparkIceberg = "THUND_TEST_SPARK_ICEBERG"
	// EnvSparkIcebergWarehouse is the folder of the server's Hadoop
	// catalog ice (spark.sql.catalog.ice.warehouse): a table ice.db.t
	// lies in its db/t.
	EnvSparkIcebergWarehouse = "THUND_TEST_SPARK_ICEBERG_WAREHOUSE"
)

// PyIceberg returns the python of a venv with pyiceberg, from
// THUND_TEST_PYICEBERG. Without it the test is skipped, except in CI
// (CI=true), where it fails: the lane must not pass by testing nothing.
func PyIceberg(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) string {
	t.Helper()
	py := os.Getenv(EnvPyIceberg)
	if py == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(EnvPyIceberg + " is not set: in CI (CI=true) the Iceberg lane needs pyiceberg (.ci/run installs it with .ci/pyiceberg)")
		}
		t.Skip(EnvPyIceberg + " is not set: no pyiceberg to read with (see internal/testenv; .ci/pyiceberg prints one)")
	}
	return py
}

// SparkIceberg returns the Spark lane's server (Spark), when it reads and
// writes Iceberg tables: its connection string, the python of its
// pyspark, and the warehouse folder of its Hadoop catalog ice. Without a
// server it skips or fails as Spark does. When the lane says the release
// has no iceberg-spark-runtime (THUND_TEST_SPARK_ICEBERG=0) the test is
// skipped, saying so, even in CI; when the lane does not say, it is
// skipped, except in CI, where it fails.
func SparkIceberg(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) (remote, python, warehouse string) {
	t.Helper()
	lane := Spark(t)
	switch v := os.Getenv(EnvSparkIceberg); v {
	case "1":
	case "0":
		t.Skip(EnvSparkIceberg + "=0: no iceberg-spark-runtime loads on " + lane.Target + " (.ci/spark-versions)")
	case "":
		if os.Getenv("CI") == "true" {
			t.Fatal(EnvSparkIceberg + " is not set: in CI (CI=true) the Spark lane must say whether its server reads Iceberg (.ci/spark-lane)")
		}
		t.Skip(EnvSparkIceberg + " is not set: the Spark server's Iceberg support is unknown (see internal/testenv)")
	default:
		t.Fatal(EnvSparkIceberg + " must be 0 or 1, not " + strconv.Quote(v))
	}
	if lane.Python == "" {
		t.Fatal(EnvSparkPython + " is not set: the Spark lane's Iceberg tests need the server's pyspark (.ci/spark-lane sets it)")
	}
	warehouse = os.Getenv(EnvSparkIcebergWarehouse)
	if warehouse == "" {
		t.Fatal(EnvSparkIcebergWarehouse + " is not set, but " + EnvSparkIceberg + "=1: the lane must name its catalog's warehouse (.ci/spark-lane)")
	}
	return lane.Remote, lane.Python, warehouse
}
