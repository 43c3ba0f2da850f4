package warehouse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The warehouse layout (DESIGN.md, "Warehouse layout"). Every name is relative
// to the warehouse root.
//
//	<dataset>/v000003/part-00000-<tag>.parquet              a dataset version's files
//	<dataset>/v000003/<col>=<value>/part-00000-<tag>.parquet  hive-style partitions
//	_thund/lock                                             the run lock (lease)
//	_thund/commits/000000000003.json                        one commit record per epoch
//	_thund/checkpoints/<epoch>/<key>                        state snapshots
//	_thund/events/<run id>.jsonl                            one event log per run
const (
	EngineDir      = "_thund"
	CommitsDir     = "_thund/commits"
	CheckpointsDir = "_thund/checkpoints"
	EventsDir      = "_thund/events"
	LockName       = "_thund/lock"
)

// RecordFormat is the version of the commit record's JSON shape.
const RecordFormat = 1

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// ValidDatasetName checks a dataset's warehouse name: [a-z0-9][a-z0-9_-]*
// (the compiler refuses other names; names starting with '_' are reserved).
func ValidDatasetName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("dataset name %q: want [a-z0-9][a-z0-9_-]* (lower case; names starting with '_' are reserved)", name)
	}
	return nil
}

// CommitName is the object name of epoch's commit record.
func CommitName(epoch int64) string {
	return fmt.Sprintf("%s/%012d.json", CommitsDir, epoch)
}

// parseCommitName returns the epoch of a commit record's object name.
func parseCommitName(name string) (int64, bool) {
	base, ok := strings.CutPrefix(name, CommitsDir+"/")
	if !ok {
		return 0, false
	}
	num, ok := strings.CutSuffix(base, ".json")
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	return n, err == nil && n > 0
}

// VersionDir is the folder of one dataset version.
func VersionDir(dataset string, version int64) string {
	return fmt.Sprintf("%s/v%06d", dataset, version)
}

// parseVersionDir splits "<dataset>/v<digits>/..." into dataset and version.
func parseVersionDir(name string) (dataset string, version int64, ok bool) {
	parts := strings.SplitN(name, "/", 3)
	if len(parts) < 3 || nameRE.MatchString(parts[0]) == false || len(parts[1]) < 2 || parts[1][0] != 'v' {
		return "", 0, false
	}
	digits := parts[1][1:]
	if strings.Trim(digits, "0123456789") != "" {
		return "", 0, false
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || v <= 0 {
		return "", 0, false
	}
	return parts[0], v, true
}

// DefaultPartition is the folder value of a NULL or empty partition value,
// as Hive and Spark write it.
const DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// EscapePartitionValue makes a partition value's text safe as one path
// segment, escaping exactly the characters Hive's FileUtils.escapePathName
// escapes (controls, "#%'*/:=?\{[]^ and DEL) as %XX with upper-case hex; a
// leading '.' is escaped too (hidden files). An empty value is
// DefaultPartition: the files hold the real values, so "" and NULL, which
// share that folder, still read back apart.
func EscapePartitionValue(v string) string {
	if v == "" {
		return DefaultPartition
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 || (i == 0 && c == '.') {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// UnescapePartitionValue reverses EscapePartitionValue; ok is false for
// DefaultPartition.
func UnescapePartitionValue(s string) (v string, ok bool) {
	if s == DefaultPartition {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}
