# Writes Iceberg tables with pyiceberg for the tests named *Iceberg* (build
# tag iceberg): python pyiceberg_fixture.py WAREHOUSE STEPS-JSON, each step
# {"op": create|create_all_types|append|append_all_types|overwrite|delete|
# add_column|rename|promote|scan,
# "table": NAME, ...}. A scan prints the table's rows, one JSON array.
import sys, json, glob, datetime, decimal, base64
import pyarrow as pa
from pyiceberg.catalog import MetastoreCatalog
from pyiceberg.table import Table, CommitTableResponse
from pyiceberg.serializers import FromInputFile
from pyiceberg.schema import Schema
from pyiceberg.types import (NestedField, LongType, StringType, IntegerType, DoubleType, DateType, BooleanType, FloatType,
    DecimalType, TimestampType, TimestamptzType, BinaryType, ListType, MapType, StructType)
from pyiceberg.partitioning import PartitionSpec, PartitionField
from pyiceberg.transforms import IdentityTransform
from pyiceberg.expressions import EqualTo

# DirCatalog keeps each table in WAREHOUSE/<name>, its metadata files named
# as catalogs name them (NNNNN-uuid.metadata.json): the newest is current.
class DirCatalog(MetastoreCatalog):
    def __init__(self, wh):
        super().__init__("fx", warehouse="file://" + wh)
        self.wh = wh
    def _loc(self, ident):
        return "file://" + self.wh + "/" + self.table_name_from(ident)
    def load_table(self, ident):
        files = sorted(glob.glob(self.wh + "/" + self.table_name_from(ident) + "/metadata/*.metadata.json"))
        loc = "file://" + files[-1]
        io = self._load_file_io(location=loc)
        return Table(self.identifier_to_tuple(ident), FromInputFile.table_metadata(io.new_input(loc)), loc, io, self)
    def create_table(self, ident, schema, location=None, partition_spec=None, sort_order=None, properties={}):
        st = self._create_staged_table(ident, schema, self._loc(ident), partition_spec or PartitionSpec(), properties=properties)
        self._write_metadata(st.metadata, st.io, st.metadata_location)
        return self.load_table(ident)
    def commit_table(self, table, requirements, updates):
        cur = self.load_table(table.name())
        st = self._update_and_stage_table(cur, table.name(), requirements, updates)
        self._write_metadata(st.metadata, st.io, st.metadata_location)
        return CommitTableResponse(metadata=st.metadata, metadata_location=st.metadata_location)
DirCatalog.__abstractmethods__ = frozenset()

TYPES = {"long": LongType(), "string": StringType(), "int": IntegerType(), "double": DoubleType(), "date": DateType()}
def typed(t, rows):
    s = t.schema().as_arrow()
    dates = [f.name for f in s if pa.types.is_date(f.type)]
    rows = [{k: (datetime.date.fromisoformat(v) if k in dates and v else v) for k, v in r.items()} for r in rows]
    return pa.Table.from_pylist(rows, schema=s)
# norm spells values as Go's Arrow arrays marshal them to JSON: decimals
# as strings, timestamps in ISO 8601 (UTC as Z), binaries in base64, maps
# as key/value lists.
def norm(v):
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        if v and isinstance(v[0], tuple):
            return [{"key": norm(k), "value": norm(x)} for k, x in v]
        return [norm(x) for x in v]
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, datetime.datetime):
        return v.isoformat().replace("+00:00", "Z")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, bytes):
        return base64.b64encode(v).decode()
    return v

cat = DirCatalog(sys.argv[1])
for step in json.loads(sys.argv[2]):
    op, name = step["op"], "db." + step["table"]
    if op == "create":
        fields = [NestedField(i+1, c["name"], TYPES[c["type"]], required=False) for i, c in enumerate(step["columns"])]
        spec = PartitionSpec()
        if step.get("partition"):
            src = [f for f in fields if f.name == step["partition"]][0]
            spec = PartitionSpec(PartitionField(source_id=src.field_id, field_id=1000, transform=IdentityTransform(), name=src.name))
        cat.create_table(name, Schema(*fields), partition_spec=spec)
        continue
    if op == "create_all_types":
        # every type Thund reads, nested ones too
        cat.create_table(name, Schema(
            NestedField(1, "b", BooleanType()), NestedField(2, "f", FloatType()), NestedField(3, "dec", DecimalType(10, 2)),
            NestedField(4, "ts", TimestampType()), NestedField(5, "tz", TimestamptzType()), NestedField(6, "bin", BinaryType()),
            NestedField(7, "tags", ListType(8, StringType(), element_required=False)),
            NestedField(9, "m", MapType(10, StringType(), 11, LongType(), value_required=False)),
            NestedField(12, "st", StructType(NestedField(13, "a", IntegerType()), NestedField(14, "c", StringType())))))
        continue
    t = cat.load_table(name)
    if op == "append":
        t.append(typed(t, step["rows"]))
    elif op == "overwrite":
        t.overwrite(typed(t, step["rows"]))
    elif op == "delete":
        t.delete(EqualTo(step["column"], step["value"]))
    elif op == "add_column":
        with t.update_schema() as u:
            u.add_column(tuple(step["column"].split(".")), TYPES[step["type"]])
    elif op == "rename":
        with t.update_schema() as u:
            u.rename_column(step["column"], step["to"])
    elif op == "promote":
        with t.update_schema() as u:
            u.update_column(step["column"], TYPES[step["type"]])
    elif op == "append_all_types":
        # st's fields as they are named now (a, c or its new name, d when added)
        st = [f.name for f in t.schema().find_field("st").field_type.fields]
        full = dict(zip(st, [1, "z", 9]))
        t.append(pa.Table.from_pylist([
            {"b": True, "f": 1.5, "dec": decimal.Decimal("12.34"), "ts": datetime.datetime(2024, 1, 2, 3, 4, 5, 6),
             "tz": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), "bin": b"\x00\x01",
             "tags": ["x", None], "m": {"k": 7}, "st": full},
            {"b": False, "f": None, "dec": decimal.Decimal("-0.01"), "ts": None, "tz": None, "bin": b"",
             "tags": [], "m": {}, "st": {n: None for n in st}},
            {k: None for k in ["b", "f", "dec", "ts", "tz", "bin", "tags", "m", "st"]}], schema=t.schema().as_arrow()))
    elif op == "scan":
        rows = cat.load_table(name).scan().to_arrow().to_pylist()
        rows = [json.dumps(norm(r), sort_keys=True, separators=(",", ":")) for r in rows]
        print(json.dumps(sorted(rows)))
