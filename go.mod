module github.com/nordisk/thund

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
)
