package sparkemit

import (
	"github.com/nordisk/thund/ir"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
	"google.golang.org/protobuf/proto"
)

// dedupWithinWatermark lowers distinct [on (k, ...)] within watermark to
// Spark Connect's Deduplicate with within_watermark set: the relation
// Dataset.dropDuplicatesWithinWatermark builds (dedup feature).
//
// Spark Connect analyzes a Deduplicate's input when the flow is defined,
// before the graph's datasets exist, so over a read of a dataset of the
// graph it fails (TABLE_OR_VIEW_NOT_FOUND, checked on 4.1.4). A stream read
// of a source is lowered to a stream of the source's files with the
// watermark declared on it (as a read's own watermark is), which needs no
// dataset of the graph; any other read of a table by name under it is
// refused.
func (l *lowerer) dedupWithinWatermark(n *ir.Distinct) *pb.Relation {
	l.dedupDirect = true
	in := l.rel(n.Input)
	l.dedupDirect = false
	if in == nil {
		return nil
	}
	if readsNamedTable(in.ProtoReflect()) {
		l.refuse(n.Pos, "distinct within watermark over a read of a table by name (not a stream of a source)",
			`Spark Connect analyzes a Deduplicate's input when the flow is defined, before the graph's datasets exist: "[TABLE_OR_VIEW_NOT_FOUND] The table or view `+"`ev`"+` cannot be found" (4.1.4, over a source's view); read only stream sources under it`)
		return nil
	}
	d := &pb.Deduplicate{Input: in, WithinWatermark: proto.Bool(true)}
	if len(n.Keys) == 0 {
		d.AllColumnsAsKeys = proto.Bool(true)
	} else {
		d.ColumnNames = append(d.ColumnNames, n.Keys...)
	}
	return &pb.Relation{RelType: &pb.Relation_Deduplicate{Deduplicate: d}}
}
