// Package testenv holds the test knobs of the module: the switches and
// environment variables that change how tests run. It is imported by tests
// only; nothing in the compiler may depend on it.
//
// Environment variables:
//
//	THUNDC_UPDATE=1
//		Rewrite golden files (the cmp targets inside testdata/scripts/*.txtar)
//		from the actual output instead of failing. Same as the -update test
//		flag. A reviewer must read the resulting diff: a golden is blessed by
//		review, never by rerunning.
//
//	THUND_TEST_FULL=1
//		Run the slow suites in full (Full, Size): the kill -9 suite's
//		kills and rounds, the random streaming equivalence cases, every
//		prefix of the SQL parser's expectation test. Without it, as in
//		the README's `go test ./...`, they run a reduced form (fewer
//		kills, rounds and random cases, every kind of check) that keeps
//		the whole command under 3 minutes with a warm cache. .ci/run
//		sets it, so CI runs everything in full; under CI=true the suites
//		run in full unless THUND_TEST_FULL=0. -short still skips what it
//		skipped (the tests that build pipelines).
//
//	GOCACHE, GOMODCACHE, GOPATH, GOPROXY, GOFLAGS
//		Passed through to script tests by GoEnv (testscript otherwise starts
//		each script with HOME=/no-home and a stripped environment, so a
//		script that runs `go build` would compile every dependency cold).
//		When unset, the values come from `go env`.
//
//	THUND_CACHE
//		Where build scripts keep thundc's content-addressed pipeline builds
//		(ThundCache), and the thundc executables that tests run as a
//		program (Thundc, one per checkout and package, relinked only when
//		stale). Default: thund-test-cache under the system temp dir,
//		shared across scripts and runs.
//
//	THUNDC_ASSUME_COLD=1
//		Read by thundc itself, not by the tests: build and run behave as on a
//		cold go build cache, announcing what go build compiles and its
//		progress even when that is only the program's own package
//		(testdata/scripts/firstrun_messages.txtar; docs/cli.md).
//
//	THUND_CRASH_SEED
//		The seed of internal/crashtest's kill -9 suite (random kill points
//		and input). Each run logs the seed it used; set this to replay it.
//
//	THUND_TEST_S3_ENDPOINT, THUND_TEST_S3_BUCKET (with AWS_ACCESS_KEY_ID,
//	AWS_SECRET_ACCESS_KEY)
//		The S3 test lane: tests built with -tags s3 run against the
//		S3-compatible server at this URL, in this bucket (default
//		thund-test), with these credentials (S3). Without an endpoint they
//		skip, except when CI=true, where they fail. .ci/run installs and
//		starts versitygw on 127.0.0.1, creates the bucket and runs the lane:
//		go test -tags s3 -run S3 ./rt/store/s3store ./rt/warehouse ./rt/etl ./cmd/thundc
//		./internal/crashtest.
//
//	THUND_TEST_KAFKA_BROKERS
//		The Kafka test lane: tests built with -tags kafka talk to the real
//		Apache Kafka broker at this host:port. Without it they skip, except
//		when CI=true, where they fail. .ci/kafka-broker fetches the broker
//		jars (cached outside the repository) and starts one KRaft node on
//		127.0.0.1; .ci/run starts it, runs the lane and stops it.
//
//	THUND_TEST_KAFKA_SASL_BROKERS, THUND_TEST_KAFKA_SSL_BROKERS,
//	THUND_TEST_KAFKA_SASL_SSL_BROKERS, THUND_TEST_KAFKA_SSL_OTHER_HOST_BROKERS,
//	THUND_TEST_KAFKA_MTLS_BROKERS, THUND_TEST_KAFKA_CA,
//	THUND_TEST_KAFKA_CLIENT_CERT, THUND_TEST_KAFKA_CLIENT_KEY,
//	THUND_TEST_KAFKA_USER, THUND_TEST_KAFKA_PASSWORD
//		The same broker's secured listeners (KafkaSecure): SASL_PLAINTEXT and
//		SASL_SSL with the mechanisms PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512,
//		all knowing the one user with this password; SSL with a certificate
//		for 127.0.0.1 and localhost; SSL with a certificate that names
//		other.invalid only (the host-name check); SSL wanting a client
//		certificate (mutual TLS), such as the one in the PEM files
//		THUND_TEST_KAFKA_CLIENT_CERT and THUND_TEST_KAFKA_CLIENT_KEY. The CA
//		in the PEM file THUND_TEST_KAFKA_CA signed every certificate.
//		.ci/kafka-broker makes the CA and the certificates with openssl when
//		it starts the broker (none is committed). Without them the tests that
//		need them skip, except when CI=true, where they fail.
//
//	THUND_TEST_SPARK_REMOTE, THUND_TEST_SPARK_TARGET, THUND_TEST_SPARK_PYTHON
//		The Spark test lane: tests built with -tags spark run against the
//		Spark Connect server at this connection string (sc://HOST:PORT),
//		which runs this thundc target (spark-4.1 or spark-4.2); the python
//		is that of the server's pyspark venv, whose protobuf descriptors the
//		wire test compares with sparkemit's. Without a remote they skip,
//		except when CI=true, where they fail. .ci/spark-lane installs each
//		pinned pyspark in a venv of its own, starts its server on 127.0.0.1
//		and runs: go test -tags spark -run Spark ./cmd/thundc ./sparkemit
//		./internal/icebergcheck
//
//	THUND_TEST_PYICEBERG
//		The Iceberg lane: the python of a venv with pyiceberg (.ci/pyiceberg
//		installs one and prints it), with which tests built with -tags
//		iceberg (named *Iceberg*) read and write Iceberg tables
//		(internal/icebergcheck). Without it they skip, except when CI=true,
//		where they fail. .ci/run sets it for the Iceberg lane, and
//		.ci/spark-lane for the Spark lane's Iceberg tests.
//
//	THUND_TEST_SPARK_ICEBERG, THUND_TEST_SPARK_ICEBERG_WAREHOUSE
//		Whether the Spark lane's server has iceberg-spark-runtime (1), or
//		no runtime loads on its release (0: the *SparkIceberg* tests skip,
//		saying so, even when CI=true), and the folder of its Hadoop catalog
//		ice (a table ice.db.t lies in its db/t). .ci/spark-lane sets both
//		from the fifth column of .ci/spark-versions; unset, the tests skip,
//		except when CI=true, where they fail (SparkIceberg).
package testenv
