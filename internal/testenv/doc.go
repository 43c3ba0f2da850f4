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
//	GOCACHE, GOMODCACHE, GOPATH, GOPROXY, GOFLAGS
//		Passed through to script tests by GoEnv (testscript otherwise starts
//		each script with HOME=/no-home and a stripped environment, so a
//		script that runs `go build` would compile every dependency cold).
//		When unset, the values come from `go env`.
//
//	THUND_CACHE
//		Where build scripts keep thundc's content-addressed pipeline builds
//		(ThundCache). Default: thund-test-cache under the system temp dir,
//		shared across scripts and runs.
package testenv
