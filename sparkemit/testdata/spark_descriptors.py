"""Print the Spark Connect protocol of the pyspark this python imports.

Used by sparkemit's TestSparkWire (build tag spark), which runs it with the
Spark lane's venv python and checks Þund's proto subset against the result.
Writes one JSON object to stdout:

  {"pyspark": "4.2.1",
   "descriptor_set": "<base64 of a google.protobuf.FileDescriptorSet>"}

The set holds every spark/connect/*.proto file pyspark ships (its generated
pyspark.sql.connect.proto.*_pb2 modules) and, before them, every file they
import, so that it links on its own.
"""

import base64
import importlib
import json
import pkgutil
import sys

import pyspark
import pyspark.sql.connect.proto as connect_proto
from google.protobuf import descriptor_pb2

files = {}


def add(fd):
    """Add one file descriptor, after the files it imports."""
    if fd.name in files:
        return
    for dep in fd.dependencies:
        add(dep)
    files[fd.name] = descriptor_pb2.FileDescriptorProto.FromString(fd.serialized_pb)


for mod in sorted(pkgutil.iter_modules(connect_proto.__path__), key=lambda m: m.name):
    if mod.name.endswith("_pb2"):
        add(importlib.import_module(connect_proto.__name__ + "." + mod.name).DESCRIPTOR)

fds = descriptor_pb2.FileDescriptorSet(file=list(files.values()))
json.dump(
    {
        "pyspark": pyspark.__version__,
        "descriptor_set": base64.b64encode(fds.SerializeToString()).decode("ascii"),
    },
    sys.stdout,
)
sys.stdout.write("\n")
