# Prints the Spark Connect server's version, then the names SHOW SYSTEM
# FUNCTIONS lists (its built-in functions and operators), one a line, for
# TestSparkFunctionList. Usage: python spark_functions.py sc://host:port
import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
print(spark.version)
for row in spark.sql("SHOW SYSTEM FUNCTIONS").collect():
    print(row[0])
spark.stop()
