package fastyaml

import "strings"

// OnPurpose reports whether msg, the message of an *Error, refuses input
// that yaml.v3 reads, on purpose: input yaml.v3 reads otherwise than YAML
// 1.2 and than other readers, or only in some arrangements, or into trees
// no rule describes, so that reading it either way would surprise someone
// (doc.go, "What it refuses"). The differential tests take such a refusal
// for agreement; every other refusal of input yaml.v3 reads is a bug.
func OnPurpose(msg string) bool {
	for _, m := range []string{
		"not UTF-8 text",                      // yaml.v3 reads UTF-16 too; kmerge reads manifests, in UTF-8
		"right after a tag: yaml.v3 reads it", // !!str, in a flow collection: the comma is the tag's to yaml.v3
		"right after a property",              // &a:b: yaml.v3 ends the anchor at the colon
		"right after an alias",                // *a:b
		"at the start of a value in a flow collection: yaml.v3 reads it as a key indicator", // [?x]
		"a bad escape \\'",                                               // yaml.v3 reads \' as '
		"a directive (%) inside a document",                              // yaml.v3 ends a document at a directive
		"a comment without a blank before it",                            // %YAML 1.1#...
		"a tab before a comment at the start of a line",                  // "#\n\t#": yaml.v3 reads it after a comment line only
		"with neither a key nor a value after it",                        // "- ?\n#c": yaml.v3 places its comments and nulls erratically
		"whose key is a list or a mapping, without a value",              // "? - a\n #c": yaml.v3 places the null by rules of each shape
		"a '?' without a key in a flow sequence",                         // "[?,]", "[? :]" read, "[?]", "[? : a]" refused
		"in a flow collection that is itself a key",                      // "{? a}: b" refused, " a:\n {? b}: c" read as a: {b}, null: c, "{?}: b" at a document's start without its value
		"a tab on a blank line",                                          // "#\n\t\n#": yaml.v3 reads it between comment lines only
		"a second byte order mark at the start of the stream",            // "\ufeff\ufeff": yaml.v3 reads it as no document, "\ufeff\ufeffa: 1" with columns shifted
		"indented no more than the key or dash it would be the value of", // "a:\n|\n  x": yaml.v3 reads it as a's value
		"a value starting with ':' in a flow collection",                 // "[? ::]" read, "[::]", "[a: ::]", "{? ::}" refused (FuzzDifferential, 2026-11-30)
	} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}
