// Command protogen generates sparkemit/connectpb from the .proto files in
// sparkemit/proto, with no system protoc: protocompile parses and links the
// files, protoc-gen-go's generator runs in-process, and protoc-gen-go-grpc
// (pinned in go.mod as a tool) runs as a plugin fed a CodeGeneratorRequest
// on stdin through `go tool`.
//
// Run it with `go generate ./sparkemit` (see sparkemit/generate.go), from
// anywhere inside the module:
//
//	go run ./sparkemit/internal/protogen -proto sparkemit/proto -out sparkemit/connectpb
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bufbuild/protocompile"
	gengo "google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

func main() {
	protoDir := flag.String("proto", "proto", "the folder holding spark/connect/*.proto")
	outDir := flag.String("out", "connectpb", "the folder to write the generated Go files into")
	flag.Parse()
	files, err := Generate(*protoDir, RunGRPCPlugin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "protogen: %v\n", err)
		os.Exit(1)
	}
	if err := write(*outDir, files); err != nil {
		fmt.Fprintf(os.Stderr, "protogen: %v\n", err)
		os.Exit(1)
	}
}

// write replaces the generated files of outDir with files.
func write(outDir string, files map[string][]byte) error {
	old, _ := filepath.Glob(filepath.Join(outDir, "*.pb.go"))
	for _, f := range old {
		if _, keep := files[filepath.Base(f)]; !keep {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(outDir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Generate compiles every .proto file under protoDir and returns the
// generated Go files by base name (base.pb.go, base_grpc.pb.go, ...).
// grpcPlugin runs protoc-gen-go-grpc on a serialized CodeGeneratorRequest
// and returns its serialized CodeGeneratorResponse.
func Generate(protoDir string, grpcPlugin func(req []byte) ([]byte, error)) (map[string][]byte, error) {
	var names []string
	err := filepath.WalkDir(protoDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".proto") {
			rel, err := filepath.Rel(protoDir, p)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no .proto files under %s", protoDir)
	}
	sort.Strings(names)
	req, err := request(protoDir, names)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	if err := runGengo(req, out); err != nil {
		return nil, err
	}
	if grpcPlugin != nil {
		raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
		if err != nil {
			return nil, err
		}
		respBytes, err := grpcPlugin(raw)
		if err != nil {
			return nil, fmt.Errorf("protoc-gen-go-grpc: %w", err)
		}
		var resp pluginpb.CodeGeneratorResponse
		if err := proto.Unmarshal(respBytes, &resp); err != nil {
			return nil, fmt.Errorf("protoc-gen-go-grpc: bad response: %w", err)
		}
		if err := collect(&resp, out); err != nil {
			return nil, fmt.Errorf("protoc-gen-go-grpc: %w", err)
		}
	}
	return out, nil
}

// request compiles the files and builds the CodeGeneratorRequest protoc
// would send: every file (imports first) and the ones to generate.
func request(protoDir string, names []string) (*pluginpb.CodeGeneratorRequest, error) {
	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: []string{protoDir}}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := c.Compile(context.Background(), names...)
	if err != nil {
		return nil, err
	}
	var all []*descriptorpb.FileDescriptorProto
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
		all = append(all, protodesc.ToFileDescriptorProto(fd))
	}
	for _, f := range linked {
		add(f)
	}
	return &pluginpb.CodeGeneratorRequest{
		FileToGenerate: names,
		Parameter:      proto.String("paths=source_relative"),
		ProtoFile:      all,
	}, nil
}

// runGengo runs protoc-gen-go's generator in-process.
func runGengo(req *pluginpb.CodeGeneratorRequest, out map[string][]byte) error {
	gen, err := protogen.Options{}.New(req)
	if err != nil {
		return err
	}
	for _, f := range gen.Files {
		if f.Generate {
			gengo.GenerateFile(gen, f)
		}
	}
	gen.SupportedFeatures = gengo.SupportedFeatures
	return collect(gen.Response(), out)
}

// collect adds a plugin response's files to out, by base name.
func collect(resp *pluginpb.CodeGeneratorResponse, out map[string][]byte) error {
	if resp.Error != nil {
		return fmt.Errorf("%s", resp.GetError())
	}
	for _, f := range resp.File {
		name := path.Base(f.GetName())
		if _, dup := out[name]; dup {
			return fmt.Errorf("two generated files named %s", name)
		}
		out[name] = []byte(f.GetContent())
	}
	return nil
}

// RunGRPCPlugin runs protoc-gen-go-grpc, the version go.mod pins as a tool,
// with req on stdin.
func RunGRPCPlugin(req []byte) ([]byte, error) {
	cmd := exec.Command("go", "tool", "protoc-gen-go-grpc")
	cmd.Stdin = bytes.NewReader(req)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go tool protoc-gen-go-grpc: %v\n%s", err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}
