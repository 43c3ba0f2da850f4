package ir

// Print renders the pipeline in canonical .thund form (docs/dsl.md).
func Print(p *Pipeline) []byte {
	return []byte("pipeline " + p.Name + "\n")
}
