package jsonpatch

// The syntax of JSON pointers (RFC 6901) is fieldpath's: ParsePointer,
// FormatPointer and PointerIndex.

// isPrefix reports whether a is a proper prefix of b, token by token ("/a"
// is one of "/a/b", not of "/ab").
func isPrefix(a, b []string) bool {
	if len(a) >= len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
