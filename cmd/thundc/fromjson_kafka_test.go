//go:build kafka

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/nordisk/thund/internal/testenv"
)

// fromJSONKafkaPipeline reads a topic and parses its values with from_json:
// PERMISSIVE with the corrupt-record field (parsed), FAILFAST (strict).
const fromJSONKafkaPipeline = `pipeline kafka_json

source clicks stream from kafka options ("bootstrapServers" = "%s", "subscribe" = "%s", "startingOffsets" = "earliest") {}

streaming table parsed =
  from stream clicks
  | select offset, from_json(cast(value as string), 'user STRING, n INT, _corrupt_record STRING') as e
  | select offset, e.user as user, e.n as n, e._corrupt_record as bad

streaming table strict =
  from stream clicks
  | select offset, from_json(cast(value as string), 'user STRING, n INT', map('mode', 'FAILFAST')) as e
`

// TestKafkaFromJSONBadRecords: bad Kafka values end to end, through a real
// topic and a built executable (issue 20, Kafka-JSON). PERMISSIVE keeps a
// malformed value with its text in _corrupt_record and counts it, and warns
// of a key not in the schema; FAILFAST fails the run at the call, commits
// nothing (no offset), and fails again at the same value on the next run.
func TestKafkaFromJSONBadRecords(t *testing.T) {
	brokers := testenv.Kafka(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	var r [4]byte
	rand.Read(r[:])
	topic := regexp.MustCompile(`[^a-zA-Z0-9._-]+`).ReplaceAllString(t.Name(), "-") + "-" + hex.EncodeToString(r[:])
	ctx := context.Background()
	resp, err := adm.CreateTopic(ctx, 1, 1, testenv.KafkaTopicConfigs(), topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatalf("creating topic %s: %v", topic, err)
	}
	defer adm.DeleteTopic(context.Background(), topic)
	values := []string{
		`{"user":"ann","n":1}`,
		`{"user":"bo","n":"two"}`,
		`not json`,
		`{"user":"cy","n":4,"region":"north"}`,
	}
	for _, v := range values {
		if err := cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatalf("producing %s: %v", v, err)
		}
	}

	dir := t.TempDir()
	src := filepath.Join(dir, "pipeline.thund")
	if err := os.WriteFile(src, []byte(fmt.Sprintf(fromJSONKafkaPipeline, brokers, topic)), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "etl")
	t.Setenv("THUND_CACHE", testenv.ThundCache())
	var out, errb bytes.Buffer
	t.Chdir(dir) // positions name pipeline.thund, as the user wrote it
	if code := run([]string{"build", "pipeline.thund", "-o", bin}, nil, &out, &errb); code != 0 {
		t.Fatalf("thundc build: exit %d\n%s", code, errb.String())
	}
	etl := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, append(args[:1:1], append([]string{"--warehouse", filepath.Join(dir, "wh")}, args[1:]...)...)...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, stdout.String(), stderr.String()
	}

	// PERMISSIVE: kept, counted, the new key warned of
	code, _, stderr := etl("run", "--select", "parsed")
	if code != 0 {
		t.Fatalf("run parsed: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"malformed rows from from_json at pipeline.thund:7:20: 2 kept with NULLs, 0 dropped",
		"warning: new columns in from_json at pipeline.thund:7:20, not declared and ignored (schemaEvolutionMode none): region",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run parsed: stderr lacks %q:\n%s", want, stderr)
		}
	}
	_, got, _ := etl("read", "parsed")
	want := "offset,user,n,bad\n0,ann,1,\n1,bo,,\"{\"\"user\"\":\"\"bo\"\",\"\"n\"\":\"\"two\"\"}\"\n2,,,not json\n3,cy,4,\n"
	if got != want {
		t.Errorf("parsed:\n%s\nwant\n%s", got, want)
	}

	// FAILFAST: fails at the call, commits nothing, and fails again
	for i := 0; i < 2; i++ {
		code, _, stderr = etl("run", "--select", "strict")
		if code != 1 || !strings.Contains(stderr, `pipeline.thund:12:20: flow strict: [MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION] from_json: malformed JSON value (field n: want INT, got "two")`) {
			t.Fatalf("run strict (%d): exit %d, want 1 and the FAILFAST error\n%s", i+1, code, stderr)
		}
	}
	if code, _, _ := etl("read", "strict"); code == 0 {
		t.Errorf("strict was committed by a failed run")
	}
}
