"""Other engines' Iceberg readers and writers, for Thund's tests.

internal/icebergcheck runs this script (embedded in the Go package) with the
python of a venv: pyiceberg's (.ci/pyiceberg) or the Spark lane's pyspark
(.ci/spark-lane). It reads one JSON request from the file named by its only
argument and prints one JSON answer on stdout; rows go to an Arrow IPC file
named in the request. Errors go to stderr with a non-zero exit status.

Requests ("op"):
  pyiceberg-read   read a table with pyiceberg's StaticTable
  spark-read       read a table with Spark (Spark Connect) and iceberg-spark-runtime
  pyiceberg-write  create a table with pyiceberg (a SQL catalog over sqlite) and change it
  spark-sql        run SQL statements on a Spark Connect server

Each module is imported by the request that needs it, so one script serves
both venvs.
"""

import datetime
import decimal
import json
import math
import os
import sys
import uuid


def main():
    with open(sys.argv[1]) as f:
        req = json.load(f)
    out = OPS[req["op"]](req)
    json.dump(out, sys.stdout)


# ---------------------------------------------------------------- pyiceberg


def iceberg_type_text(t):
    """An Iceberg type in the spec's spelling: long, decimal(9, 2),
    list<int>, map<string, long>, struct<a: int, b: string>."""
    from pyiceberg.types import ListType, MapType, StructType

    if isinstance(t, ListType):
        return "list<%s>" % iceberg_type_text(t.element_type)
    if isinstance(t, MapType):
        return "map<%s, %s>" % (iceberg_type_text(t.key_type), iceberg_type_text(t.value_type))
    if isinstance(t, StructType):
        return "struct<%s>" % ", ".join("%s: %s" % (f.name, iceberg_type_text(f.field_type)) for f in t.fields)
    return str(t)


def snapshot_json(s):
    summary = s.summary
    props = {}
    op = ""
    if summary is not None:
        op = summary.operation.value
        props = {k: str(v) for k, v in summary.additional_properties.items()}
    return {
        "id": s.snapshot_id,
        "parent": s.parent_snapshot_id,
        "sequence": s.sequence_number,
        "timestamp_ms": s.timestamp_ms,
        "operation": op,
        "summary": props,
    }


def pyiceberg_read(req):
    from pyiceberg.table import StaticTable

    tbl = StaticTable.from_metadata(req["metadata"])
    md = tbl.metadata
    at = req["at"]
    snap = None
    if at["kind"] == "snapshot":
        snap = md.snapshot_by_id(at["snapshot_id"])
        if snap is None:
            raise SystemExit("no snapshot %d in %s" % (at["snapshot_id"], req["metadata"]))
    elif at["kind"] == "timestamp":
        snap = tbl.snapshot_as_of_timestamp(at["timestamp_ms"])
        if snap is None:
            raise SystemExit("no snapshot as of %d ms in %s" % (at["timestamp_ms"], req["metadata"]))
    else:
        snap = tbl.current_snapshot()
    schema = tbl.schema()
    if snap is not None and snap.schema_id is not None:
        schema = tbl.schemas().get(snap.schema_id, schema)
    if snap is None:
        # a table with no snapshot has no rows
        data = schema.as_arrow().empty_table()
    else:
        data = tbl.scan(snapshot_id=snap.snapshot_id).to_arrow()
    write_arrow(req["arrow"], data)
    spec = tbl.spec()
    return {
        "snapshot_id": snap.snapshot_id if snap is not None else 0,
        "columns": [
            {"name": f.name, "type": iceberg_type_text(f.field_type), "field_id": f.field_id, "required": f.required}
            for f in schema.fields
        ],
        "spec": [
            {
                "name": p.name,
                "transform": str(p.transform),
                "source_id": p.source_id,
                "source": schema.find_column_name(p.source_id),
                "field_id": p.field_id,
            }
            for p in spec.fields
        ],
        "snapshots": [snapshot_json(s) for s in md.snapshots],
        "format_version": md.format_version,
    }


def write_arrow(path, table):
    import pyarrow as pa

    with pa.OSFile(path, "wb") as sink:
        with pa.ipc.new_file(sink, table.schema) as w:
            w.write_table(table)


# ---------------------------------------------------------------- types and values for the writers


def parse_type(text):
    """Parses the Go side's type text (the Iceberg spelling above, spaces
    optional) into a pyarrow type."""
    import pyarrow as pa

    toks = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "<>(),:[]":
            toks.append(c)
            i += 1
        else:
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            if j == i:
                raise SystemExit("type %r: unexpected %r" % (text, c))
            toks.append(text[i:j])
            i = j
    pos = [0]

    def take(want=None):
        if pos[0] >= len(toks):
            raise SystemExit("type %r: ends early" % text)
        t = toks[pos[0]]
        if want is not None and t != want:
            raise SystemExit("type %r: want %r, found %r" % (text, want, t))
        pos[0] += 1
        return t

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    prims = {
        "boolean": pa.bool_(),
        "int": pa.int32(),
        "long": pa.int64(),
        "float": pa.float32(),
        "double": pa.float64(),
        "string": pa.string(),
        "binary": pa.binary(),
        "date": pa.date32(),
        "time": pa.time64("us"),
        "timestamp": pa.timestamp("us"),
        "timestamptz": pa.timestamp("us", tz="UTC"),
        "uuid": pa.uuid(),
    }

    def one():
        name = take()
        if name == "decimal":
            take("(")
            p = int(take())
            take(",")
            s = int(take())
            take(")")
            return pa.decimal128(p, s)
        if name == "fixed":
            take("[")
            n = int(take())
            take("]")
            return pa.binary(n)
        if name == "list":
            take("<")
            e = one()
            take(">")
            return pa.list_(e)
        if name == "map":
            take("<")
            k = one()
            take(",")
            v = one()
            take(">")
            return pa.map_(k, v)
        if name == "struct":
            take("<")
            fields = []
            while peek() != ">":
                fname = take()
                take(":")
                fields.append(pa.field(fname, one()))
                if peek() == ",":
                    take(",")
            take(">")
            return pa.struct(fields)
        if name in prims:
            return prims[name]
        raise SystemExit("type %r: unknown type %r" % (text, name))

    t = one()
    if pos[0] != len(toks):
        raise SystemExit("type %r: trailing %r" % (text, toks[pos[0]:]))
    return t


def py_value(t, v):
    """The JSON value v (as icebergcheck encodes it) as the Python value
    pyarrow builds a value of type t from."""
    import pyarrow as pa

    if v is None:
        return None
    if getattr(t, "extension_name", None) == "arrow.uuid":
        return uuid.UUID(v).bytes
    if pa.types.is_floating(t):
        if isinstance(v, str):
            return {"NaN": math.nan, "+Inf": math.inf, "-Inf": -math.inf, "-0": -0.0}[v]
        return float(v)
    if pa.types.is_decimal(t):
        return decimal.Decimal(v)
    if pa.types.is_date(t):
        return datetime.date.fromisoformat(v)
    if pa.types.is_time(t):
        return datetime.time.fromisoformat(v)
    if pa.types.is_timestamp(t):
        d = datetime.datetime.fromisoformat(v.replace("Z", "+00:00"))
        if t.tz is None:
            if d.tzinfo is not None:
                raise SystemExit("timestamp %r: a timestamp without a zone takes no offset" % v)
            return d
        if d.tzinfo is None:
            raise SystemExit("timestamptz %r: needs an offset (Z or +HH:MM)" % v)
        return d.astimezone(datetime.timezone.utc)
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
        return bytes.fromhex(v)
    if pa.types.is_map(t):
        return [(py_value(t.key_type, k), py_value(t.item_type, x)) for k, x in v]
    if pa.types.is_list(t):
        return [py_value(t.value_type, x) for x in v]
    if pa.types.is_struct(t):
        return {t.field(i).name: py_value(t.field(i).type, v.get(t.field(i).name)) for i in range(t.num_fields)}
    return v


def arrow_rows(schema, rows):
    import pyarrow as pa

    cols = []
    for i, f in enumerate(schema):
        cols.append(pa.array([py_value(f.type, r[i]) for r in rows], type=f.type))
    return pa.Table.from_arrays(cols, schema=schema)


# ---------------------------------------------------------------- pyiceberg writer


def pyiceberg_write(req):
    import pyarrow as pa
    from pyiceberg.catalog.sql import SqlCatalog

    d = req["dir"]
    os.makedirs(d, exist_ok=True)
    cat = SqlCatalog("fixtures", uri="sqlite:///%s/catalog.db" % d, warehouse="file://%s" % d)
    name = req["table"]
    ns = name.split(".")[0]
    tbl = None
    schema = None
    out = {"snapshots": []}
    for op in req["ops"]:
        kind = op["kind"]
        if kind == "create":
            if ns not in [n[0] for n in cat.list_namespaces()]:
                cat.create_namespace(ns)
            schema = pa.schema(
                [pa.field(c["name"], parse_type(c["type"]), nullable=not c.get("required", False)) for c in op["columns"]]
            )
            props = {"format-version": str(op.get("format_version") or 2)}
            tbl = cat.create_table(name, schema=schema, properties=props)
            if op.get("partition_by"):
                with tbl.update_spec() as u:
                    for c in op["partition_by"]:
                        u.add_identity(c)
        elif tbl is None:
            raise SystemExit("%s: the first operation must be create" % kind)
        elif kind == "append":
            tbl.append(arrow_rows(schema, op["rows"]))
        elif kind == "overwrite":
            if op.get("filter"):
                tbl.overwrite(arrow_rows(schema, op["rows"]), overwrite_filter=op["filter"])
            else:
                tbl.overwrite(arrow_rows(schema, op["rows"]))
        elif kind == "delete":
            tbl.delete(delete_filter=op["filter"])
        else:
            raise SystemExit("unknown operation %r" % kind)
        tbl = cat.load_table(name)
        snap = tbl.current_snapshot()
        out["snapshots"].append(snap.snapshot_id if snap is not None else 0)
    out["location"] = tbl.location()
    out["metadata"] = tbl.metadata_location
    return out


# ---------------------------------------------------------------- Spark


def spark_session(remote):
    from pyspark.sql import SparkSession

    return SparkSession.builder.remote(remote).getOrCreate()


def spark_read(req):
    spark = spark_session(req["remote"])
    # a Hadoop table by its folder (Spark finds the metadata by
    # version-hint.text), any other by its metadata file
    src = req["load"]
    at = req["at"]
    reader = spark.read.format("iceberg")
    if at["kind"] == "snapshot":
        reader = reader.option("versionAsOf", str(at["snapshot_id"]))
    elif at["kind"] == "timestamp":
        ts = datetime.datetime.fromtimestamp(at["timestamp_ms"] / 1000, tz=datetime.timezone.utc)
        reader = reader.option("timestampAsOf", ts.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (at["timestamp_ms"] % 1000))
    df = reader.load(src)
    data = df.toArrow()
    write_arrow(req["arrow"], data)
    columns = [{"name": f.name, "type": f.dataType.simpleString()} for f in df.schema.fields]

    snaps = spark.read.format("iceberg").load(src + "#snapshots").toArrow().to_pylist()
    # #snapshots has no sequence number; each commit's metadata file records
    # that of its newest snapshot
    seqs = {}
    for e in spark.read.format("iceberg").load(src + "#metadata_log_entries").toArrow().to_pylist():
        if e.get("latest_snapshot_id") is not None:
            seqs[e["latest_snapshot_id"]] = e["latest_sequence_number"]
    snapshots = []
    for s in snaps:
        summary = s["summary"] or []
        if isinstance(summary, dict):
            summary = summary.items()
        snapshots.append(
            {
                "id": s["snapshot_id"],
                "parent": s["parent_id"],
                "sequence": seqs.get(s["snapshot_id"], -1),
                "timestamp_ms": int(s["committed_at"].timestamp() * 1000 + 0.5),
                "operation": s["operation"] or "",
                "summary": {k: v for k, v in summary},
            }
        )
    # Spark shows the partition spec as the partition struct of the
    # #partitions table: its field names (not the transforms)
    spec = []
    for f in spark.read.format("iceberg").load(src + "#partitions").schema.fields:
        if f.name == "partition":
            spec = [{"name": p.name} for p in f.dataType.fields]
    current = spark.read.format("iceberg").load(src + "#history").where("is_current_ancestor").toArrow().to_pylist()
    sid = 0
    if at["kind"] == "snapshot":
        sid = at["snapshot_id"]
    elif at["kind"] == "current" and current:
        sid = max(current, key=lambda h: h["made_current_at"])["snapshot_id"]
    return {"snapshot_id": sid, "columns": columns, "spec": spec, "snapshots": snapshots}


def spark_sql(req):
    spark = spark_session(req["remote"])
    for stmt in req["statements"]:
        spark.sql(stmt).collect()
    return {}


OPS = {
    "pyiceberg-read": pyiceberg_read,
    "pyiceberg-write": pyiceberg_write,
    "spark-read": spark_read,
    "spark-sql": spark_sql,
}

if __name__ == "__main__":
    main()
