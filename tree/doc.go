// Package tree reads and writes the one tree type every part of kmerge works on:
// go.yaml.in/yaml/v3 nodes, which keep comments, key order, quoting and the
// position of every value.
//
// It reads YAML and JSON streams (one or more documents) into nodes, writes
// nodes back as YAML in the style of the input or as JSON, and gives the
// JSON meaning of a node: whether it is an object, an array, a string, an
// integer, a float, a boolean or null, and when two scalars are equal.
//
// Equality follows what a Kubernetes API server sees after decoding JSON:
// an integer that fits in 64 bits is an int64, every other number a float64,
// and values of different types are never equal (1 is not "1", 1 is not 1.0).
// Numbers keep their exact text; nothing is rounded on the way through.
//
// Writing YAML goes through kmerge's own writer (write.go), which writes
// what yaml.v3's encoder writes wherever that reads back as the tree, and
// text that does elsewhere; it keeps comments, key order, quoting and flow
// style but not blank lines or unusual spacing and indentation. After Stream.Snapshot, Stream.WriteYAML
// keeps the source text instead: documents no edit touched are copied byte
// for byte, and edited ones differ from the input only in the lines the
// edit changed (see Snapshot).
package tree
