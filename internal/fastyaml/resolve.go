// Copyright (c) 2011-2019 Canonical Ltd
//
// Licensed under the Apache License, Version 2.0: see tree.go.

package fastyaml

import yaml "go.yaml.in/yaml/v3"

// The tags yaml.v3 gives nodes.
const (
	nullTag  = "!!null"
	boolTag  = "!!bool"
	strTag   = "!!str"
	intTag   = "!!int"
	seqTag   = "!!seq"
	mapTag   = "!!map"
	mergeTag = "!!merge"
)

// resolveHint is yaml.v3's resolveTable: what the first character of a
// plain scalar says it may be. 0: a string.
var resolveHint = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for c := '0'; c <= '9'; c++ {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~<" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// resolve returns the tag yaml.v3 gives a plain scalar (resolve("", v)).
// The shapes most values have are resolved here, by yaml.v3's rules; the
// others by yaml.v3 itself, through Node.ShortTag, which calls its
// resolver.
func resolve(v string) string {
	if v == "" {
		return nullTag
	}
	switch resolveHint[v[0]] {
	case 0:
		return strTag // nothing but a string starts so
	case 'M':
		// The words of yaml.v3's resolveMap that start with these.
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return boolTag
		case "~", "null", "Null", "NULL":
			return nullTag
		case "<<":
			return mergeTag
		}
		return strTag
	case 'D', 'S':
		// A decimal integer without a leading 0 and short enough for
		// int64 (yaml.v3 tries timestamps first, which start with four
		// digits and a dash).
		if len(v) <= 18 && (v[0] != '0' || len(v) == 1) && allDigits(v) {
			return intTag
		}
		// Besides the words +.inf and -.inf of its resolveMap, yaml.v3
		// tries a timestamp, an integer (decimal, 0x, 0o, 0b, signs,
		// underscores), a float ([-+.0-9eE]): none of them has a
		// character out of numberChars, like the 50m and 128Mi of
		// resources.
		if len(v) == 5 && v[1] == '.' {
			break // +.inf, -.Inf...
		}
		for i := 0; i < len(v); i++ {
			if !numberChars[v[i]] {
				return strTag
			}
		}
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Value: v}
	return n.ShortTag()
}

// numberChars are the characters of the numbers and timestamps yaml.v3
// resolves: digits, signs, underscores, the letters of 0x (with hexadecimal
// digits, among which the e of exponents), 0o and 0b, and those of
// timestamps (1-2-3T4:5:6.7Z, 1-2-3t4:5:6+07:00, 1-2-3 4:5:6, and
// 1-2-3T4:5:6,7Z: Go's time.Parse takes a comma before fractional
// seconds, as FuzzDifferential found).
var numberChars = func() (t [256]bool) {
	for _, c := range "0123456789+-_.,xXoObBaAbBcCdDeEfF:tTZ " {
		t[c] = true
	}
	return t
}()

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
