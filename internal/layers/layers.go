// Package layers writes down the layers of kwire's packages, lowest
// first, and which layers each may import (ARCHITECTURE.md, "Layers"):
// imports run one way, from programs down to the base, never up or
// sideways between layers that do not list each other. Its test reads the
// imports of every package of the module (natively and for js/wasm) with
// go list and fails on an import the table does not allow, or on a
// package the table does not place.
package layers

// Layer is a set of packages (paths in the module, a trailing "/..." for
// a folder and everything below it) and the layers they may import
// besides their own.
type Layer struct {
	Name     string
	Packages []string
	Imports  []string // names of lower layers
}

// Table is the layering, lowest first.
var Table = []Layer{
	{"base", []string{"internal/xfmt", "internal/xhex", "internal/textesc", "internal/deflate", "internal/unzip", "internal/tlsrec", "jsonv", "capture/tlsdec/internal/tlscrypto"}, nil},
	// The model of the schemas: no bytes, no trees.
	{"schemas", []string{"schemas/jsonc", "schemas", "schemas/sets", "schemas/atlas", "schemas/draft"}, []string{"base"}},
	// Trees with byte spans and their HTML: no schemas.
	{"tree", []string{"tree", "render"}, []string{"base"}},
	// The codec's parts that know bytes and trees but no schemas (records
	// reach the schema set only through the hooks codec fills).
	{"wire", []string{"codec/wire", "codec/records", "codec/records/internal/codecs", "codec/sasl", "codec/otlp"}, []string{"base", "tree"}},
	{"codec", []string{"codec"}, []string{"base", "schemas", "tree", "wire"}},
	// What the programs are made of, on top of the codec.
	{"features", []string{"hexin", "draftcodec", "identify", "capture/tlsdec", "capture", "site", "server", "web"}, []string{"base", "schemas", "tree", "wire", "codec"}},
	// Helpers of tests and benchmarks, each a …test package beside the
	// package it helps (as net/http/httptest is): above everything but the
	// programs, so that no package below imports one.
	{"testing", []string{"tree/treetest", "schemas/draft/drafttest", "schemas/sets/setstest", "codec/wire/wiretest", "codec/records/recordstest", "codec/codectest", "capture/capturetest"}, []string{"base", "schemas", "tree", "wire", "codec", "features"}},
	// The programs and what only they use: anything below.
	{"programs", []string{"cmd/...", "wasm/...", "wasm", "e2e", "e2e/realkafka", "scripts/...", "internal/layers"}, []string{"base", "schemas", "tree", "wire", "codec", "features", "testing"}},
}
