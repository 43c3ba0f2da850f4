// Package thund pins the module's dependency set while the packages that use
// it are being written; cmd/thundc imports the runtime's dependencies for
// the same reason (a warm build cache for the first thundc build). The AWS
// SDK stays here although programs built with --s3=false leave it out, so
// that the first build with it is warm too, and so does franz-go, which only
// programs with a Kafka source or sink link (codegen's TestS3ImportGraph and
// TestKafkaImportGraph check that nothing a program imports outside rt/ is
// missing).
package thund

import (
	_ "encoding/gob" // the runtime's, and no other package of thundc's
	_ "github.com/alecthomas/participle/v2"
	_ "github.com/apache/arrow-go/v18/arrow"
	_ "github.com/apache/arrow-go/v18/arrow/csv"
	_ "github.com/apache/arrow-go/v18/arrow/ipc"
	_ "github.com/apache/iceberg-go" // rt/iceberg's: manifests and manifest lists of the Iceberg tables every program publishes
	_ "github.com/aws/aws-sdk-go-v2/aws/retry"
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/service/s3"
	_ "github.com/dave/jennifer/jen"
	_ "github.com/rogpeppe/go-internal/diff"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/twmb/franz-go/pkg/kadm" // rt/kafka's, linked only by pipelines that read or write Kafka
	_ "github.com/twmb/franz-go/pkg/kgo"
	_ "github.com/twmb/franz-go/pkg/sasl/plain"
	_ "github.com/twmb/franz-go/pkg/sasl/scram"
	_ "github.com/vbauerster/mpb/v8"
	_ "github.com/vbauerster/mpb/v8/decor"
)
