package sparkemit

// The Spark Connect messages in connectpb are generated from proto/ by a Go
// program (no system protoc); a test in internal/protogen fails when they are
// stale.
//go:generate go run ./internal/protogen -proto proto -out connectpb
