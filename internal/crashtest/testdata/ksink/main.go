// Command ksink is the Kafka sink's kill -9 scenario (kafka_test.go), written
// as a generated program would be:
//
//	source ids stream from csv "in/*.csv" { id int64 }
//	sink out format kafka options ("kafka.bootstrap.servers" = $KSINK_BROKERS, "topic" = $KSINK_TOPIC) =
//	  from stream ids | select concat('k', id % 7) as key, concat('v', id) as value
package main

import (
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/rt/etl"
	"github.com/nordisk/thund/rt/kafka"
)

var (
	idsSchema = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	outSchema = arrow.NewSchema([]arrow.Field{
		{Name: "key", Type: arrow.BinaryTypes.String},
		{Name: "value", Type: arrow.BinaryTypes.String},
	}, nil)
)

func out(fc *etl.FlowContext) error {
	return fc.EachBatch("ids", func(rec arrow.RecordBatch) error {
		ids := rec.Column(0).(*array.Int64)
		b := array.NewRecordBuilder(fc.Mem, outSchema)
		for i := 0; i < ids.Len(); i++ {
			id := ids.Value(i)
			b.Field(0).(*array.StringBuilder).Append("k" + strconv.FormatInt(id%7, 10))
			b.Field(1).(*array.StringBuilder).Append("v" + strconv.FormatInt(id, 10))
		}
		batch := b.NewRecordBatch()
		b.Release()
		rec.Release()
		err := fc.Emit(batch)
		batch.Release()
		return err
	})
}

func main() {
	etl.Main(&etl.Pipeline{Name: "ksink", File: "ksink.thund", Compiler: "v0.0.0-test", Kafka: kafka.New(), Datasets: []*etl.Dataset{
		{Name: "ids", Kind: etl.Source, Schema: idsSchema,
			Source:     &etl.FileSource{Format: "csv", Patterns: []string{"in/*.csv"}, Unbounded: true},
			Definition: `source ids stream from csv "in/*.csv" { id int64 }`},
		{Name: "out", Kind: etl.Sink, Schema: outSchema, Format: "kafka",
			SinkOptions: [][2]string{{"kafka.bootstrap.servers", os.Getenv("KSINK_BROKERS")}, {"topic", os.Getenv("KSINK_TOPIC")}},
			Flows:       []*etl.Flow{{Name: "out", Inputs: []etl.Input{{Name: "ids", Stream: true}}, Run: out}},
			Definition:  "sink out format kafka = from stream ids | select ..."},
	}})
}
