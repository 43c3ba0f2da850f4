//go:build spark

package icebergcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
)

// TestSparkIcebergReadsPyIceberg: Spark, through iceberg-spark-runtime,
// reads the table pyiceberg wrote (every type, two appends, an overwrite
// and a delete) at each snapshot, by id and as of its time, with
// pyiceberg's rows, and lists the same snapshots.
func TestSparkIcebergReadsPyIceberg(t *testing.T) {
	remote, sparkPy, _ := testenv.SparkIceberg(t)
	py := testenv.PyIceberg(t)
	fx := EveryType()
	ops := fx.Ops
	w := PyIcebergWrite(t, py, t.TempDir(), ops)
	for i := 1; i < len(ops); i++ {
		id := w.Snapshots[i]
		want := PyIceberg(t, py, w.Location, Snapshot(id))
		Equal(t, "pyiceberg and what was written after "+string(ops[i].Kind), fx.Want(t, i), want)
		got := Spark(t, remote, sparkPy, w.Location, Snapshot(id))
		Equal(t, fmt.Sprintf("snapshot %d (after %s)", id, ops[i].Kind), want, got)
		var ts int64
		for _, s := range want.Snapshots {
			if s.ID == id {
				ts = s.TimestampMS
			}
		}
		asOf := Spark(t, remote, sparkPy, w.Location, AsOf(time.UnixMilli(ts)))
		if asOf.SnapshotID != id {
			t.Errorf("as of snapshot %d's time: Spark read snapshot %d", id, asOf.SnapshotID)
		}
		Equal(t, fmt.Sprintf("as of snapshot %d's time (after %s)", id, ops[i].Kind), want, asOf)
	}
	want := PyIceberg(t, py, w.Location, Current)
	got := Spark(t, remote, sparkPy, w.Location, Current)
	Equal(t, "current snapshot", want, got)
	if got.SnapshotID != want.SnapshotID {
		t.Errorf("current snapshot: Spark %d, pyiceberg %d", got.SnapshotID, want.SnapshotID)
	}
	if !slices.EqualFunc(want.Snapshots, got.Snapshots, sameSnapshot) {
		t.Errorf("snapshots:\npyiceberg %+v\nSpark     %+v", want.Snapshots, got.Snapshots)
	}
	if len(got.Spec) != 1 || got.Spec[0].Name != want.Spec[0].Name {
		t.Errorf("partition fields: Spark %+v, pyiceberg %+v", got.Spec, want.Spec)
	}
	t.Logf("Spark read %d rows at each of %d snapshots as pyiceberg did; Spark's types %v", len(got.Rows), len(ops)-1, got.Types)
}

// sameSnapshot compares two readers' view of a snapshot. Spark has no
// sequence number for a snapshot that was not the newest of a commit (a
// transaction's first: pyiceberg's overwrite is a delete and an append).
func sameSnapshot(a, b SnapshotInfo) bool {
	pa, pb := int64(0), int64(0)
	if a.Parent != nil {
		pa = *a.Parent
	}
	if b.Parent != nil {
		pb = *b.Parent
	}
	return a.ID == b.ID && pa == pb && (a.Sequence == b.Sequence || a.Sequence == -1 || b.Sequence == -1) && a.TimestampMS == b.TimestampMS &&
		a.Operation == b.Operation && a.Summary["total-records"] == b.Summary["total-records"]
}

// TestSparkIcebergWrites: a table that Spark SQL wrote in the lane's
// Hadoop catalog (create, insert, delete, insert overwrite) is read by
// pyiceberg at each snapshot with Spark's rows. The delete is
// merge-on-read: pyiceberg applies Spark's position delete file.
func TestSparkIcebergWrites(t *testing.T) {
	remote, sparkPy, warehouse := testenv.SparkIceberg(t)
	py := testenv.PyIceberg(t)
	db := fmt.Sprintf("icebergcheck_%d", time.Now().UnixNano())
	tbl := "ice." + db + ".t"
	location := filepath.Join(warehouse, db, "t")
	t.Cleanup(func() {
		SparkSQL(t, remote, sparkPy, "DROP TABLE IF EXISTS "+tbl+" PURGE", "DROP NAMESPACE IF EXISTS ice."+db)
		os.RemoveAll(filepath.Join(warehouse, db))
	})
	SparkSQL(t, remote, sparkPy,
		"CREATE NAMESPACE ice."+db,
		"CREATE TABLE "+tbl+` (id BIGINT NOT NULL, region STRING, n INT, f FLOAT, d DOUBLE, price DECIMAL(10, 2),
		  raw BINARY, day DATE, at TIMESTAMP, at_ntz TIMESTAMP_NTZ, ok BOOLEAN,
		  tags ARRAY<STRING>, attrs MAP<STRING, INT>, point STRUCT<x: DOUBLE, label: STRING>)
		  USING iceberg PARTITIONED BY (region)
		  TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')`)
	steps := []string{
		"INSERT INTO " + tbl + ` VALUES
		  (1, 'eu', 7, CAST(1.1 AS FLOAT), 0.1, 12.30, X'00FF', DATE'1969-07-20', TIMESTAMP'2024-01-31 13:04:05.000001',
		   TIMESTAMP_NTZ'2024-01-31 13:04:05.000001', true, array('a', NULL), map('k', 1, 'j', NULL), named_struct('x', 0.5, 'label', 'p')),
		  (2, 'eu', -7, CAST('NaN' AS FLOAT), CAST('-Infinity' AS DOUBLE), -0.05, X'', DATE'2024-02-29', TIMESTAMP'1969-12-31 23:59:59.999999',
		   TIMESTAMP_NTZ'1900-01-01 00:00:00', false, array(), map(), named_struct('x', -0.0, 'label', NULL)),
		  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
		"INSERT INTO " + tbl + ` VALUES (4, 'eu', 2147483647, CAST('Infinity' AS FLOAT), 1e300, 99999999.99, X'0102', DATE'9999-12-31',
		  TIMESTAMP'2000-01-01 00:00:00', TIMESTAMP_NTZ'2000-01-01 00:00:00', true, array('c"q'), map('a', -1), named_struct('x', 1.0, 'label', 'é'))`,
		"DELETE FROM " + tbl + " WHERE id = 2",
		"INSERT OVERWRITE " + tbl + " SELECT id + 10, region, n, f, d, price, raw, day, at, at_ntz, ok, tags, attrs, point FROM " + tbl + " WHERE region = 'eu'",
	}
	for _, s := range steps {
		SparkSQL(t, remote, sparkPy, s)
		want := Spark(t, remote, sparkPy, location, Current)
		got := PyIceberg(t, py, location, Current)
		if got.SnapshotID != want.SnapshotID {
			t.Errorf("current snapshot: pyiceberg %d, Spark %d", got.SnapshotID, want.SnapshotID)
		}
		Equal(t, "after "+s[:20], want, got)
	}
	// every snapshot again, now that the table has them all
	cur := PyIceberg(t, py, location, Current)
	if len(cur.Snapshots) != len(steps) {
		t.Fatalf("%d snapshots after %d statements: %+v", len(cur.Snapshots), len(steps), cur.Snapshots)
	}
	for _, s := range cur.Snapshots {
		Equal(t, fmt.Sprintf("snapshot %d (%s)", s.ID, s.Operation),
			Spark(t, remote, sparkPy, location, Snapshot(s.ID)), PyIceberg(t, py, location, Snapshot(s.ID)))
	}
	// the delete was merge-on-read: a position delete file pyiceberg applied
	if del := cur.Snapshots[2]; del.Operation != "delete" || del.Summary["added-position-deletes"] != "1" {
		t.Errorf("the DELETE's snapshot: %s %v, want a delete adding one position delete", del.Operation, del.Summary)
	}
	if !hadoopTable(location) {
		t.Errorf("%s: Spark's Hadoop catalog wrote no version-hint.text", location)
	}
	t.Logf("pyiceberg read %d snapshots of Spark's table with Spark's rows; pyiceberg's types %v", len(cur.Snapshots), cur.Types)
}
