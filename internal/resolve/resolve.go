// Package resolve decides what a plain YAML scalar means, for kmerge's
// reader and its writer alike:
//
//   - Tag: the tag the YAML 1.2 core schema gives the text as kmerge reads
//     it, which is the tag go.yaml.in/yaml/v3 gives it (conformance/ holds
//     the two together with a differential test and a fuzz target);
//   - Tag11: the tag a YAML 1.1 reader gives it, as sigs.k8s.io/yaml's (the
//     reader kubectl and Helm read YAML with) does;
//   - String: whether a string written without quotes reads back as that
//     same string in both, and in the wider YAML 1.1 readers (PyYAML's,
//     Ansible's). The writer quotes every string String refuses.
//
// Only the text is looked at: whether the text can be written plain at all
// (indicators, ": ", " #", spaces at either end) is the writer's concern.
package resolve

import (
	"strconv"
	"strings"
	"time"
)

// The tags, in yaml.v3's short form.
const (
	StrTag       = "!!str"
	IntTag       = "!!int"
	FloatTag     = "!!float"
	BoolTag      = "!!bool"
	NullTag      = "!!null"
	TimestampTag = "!!timestamp"
	MergeTag     = "!!merge"
)

// Tag returns the tag of the plain scalar v in YAML 1.2's core schema, as
// kmerge (and yaml.v3) read it:
//
//   - null: the empty text, ~, null, Null, NULL;
//   - bool: true, True, TRUE, false, False, FALSE;
//   - float: .inf, .nan in their three spellings, with a sign for .inf, and
//     decimal numbers with a dot or an exponent (1.5, .5, 1e3, 08);
//   - int: what Go's number syntax reads as an integer of 64 bits, signed
//     or not, once every underscore is dropped (12, -0x1F, 0o17, 017,
//     0b101, -_1, 1_000); after a 0b or 0o prefix a sign is allowed too
//     (0b-1);
//   - timestamp: a date, four digits for the year, with a time or not
//     (2001-12-14, 2001-12-14t21:59:43.10-05:00);
//   - merge: <<;
//   - str: everything else, numbers too large for any of the above among
//     them (1e400).
func Tag(v string) string {
	if v == "" {
		return NullTag
	}
	switch c := v[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '~' || c == '<':
		return word12(v)
	case c >= '0' && c <= '9':
		if t := decimal(v); t != "" {
			return t
		}
		return number(v, true)
	case c == '-' || c == '+':
		if len(v) == 1 {
			return StrTag
		}
		if d := v[1]; d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '-' || d == ' ' {
			return StrTag // an option (-v, --port), never a number
		}
		if t := signedInf(v); t != "" {
			return t
		}
		return number(v, true)
	case c == '.':
		return dotted(v)
	}
	return StrTag
}

// Tag11 returns the tag of the plain scalar v as a YAML 1.1 reader gives
// it, the way sigs.k8s.io/yaml reads it: Tag's rules, but for the words
// (y, Y, yes, Yes, YES, on, On, ON are true; n, N, no, No, NO, off, Off,
// OFF false, beside Tag's) and for the 0o prefix followed by a sign (not
// a number there).
func Tag11(v string) string {
	if v == "" {
		return NullTag
	}
	switch c := v[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '~' || c == '<':
		switch v {
		case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
			"n", "N", "no", "No", "NO", "off", "Off", "OFF":
			return BoolTag
		}
		return word12(v)
	case c >= '0' && c <= '9':
		if t := decimal(v); t != "" {
			return t
		}
		return number(v, false)
	case c == '-' || c == '+':
		if len(v) == 1 {
			return StrTag
		}
		if d := v[1]; d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '-' || d == ' ' {
			return StrTag
		}
		if t := signedInf(v); t != "" {
			return t
		}
		return number(v, false)
	case c == '.':
		return dotted(v)
	}
	return StrTag
}

// String reports whether the string v, written as a plain scalar, reads
// back as the string v: in YAML 1.2 (Tag), in YAML 1.1 as sigs.k8s.io/yaml
// reads it (Tag11), and in YAML 1.1 readers that are wider still: those
// that fold the letter case of the words (oN, tRuE, nULL), read base-60
// numbers (1:30, -1:20:30.5) or take "=" for the value key.
func String(v string) bool {
	if Tag(v) != StrTag || Tag11(v) != StrTag {
		return false
	}
	switch len(v) {
	case 1:
		return v != "="
	case 2, 3, 4, 5:
		switch strings.ToLower(v) {
		case "yes", "no", "on", "off", "true", "false", "null":
			return false
		}
	}
	return !sexagesimal(v)
}

// word12 resolves a text that starts with a letter, ~ or <: one of the
// words of YAML 1.2, or a string.
func word12(v string) string {
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return BoolTag
	case "null", "Null", "NULL", "~":
		return NullTag
	case "<<":
		return MergeTag
	}
	return StrTag
}

// signedInf resolves the infinities with a sign; "" for other texts.
func signedInf(v string) string {
	switch v {
	case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return FloatTag
	}
	return ""
}

// dotted resolves a text starting with a dot: .inf and .nan, and a
// decimal fraction with an exponent or not (.5, .5e-3) that a float64
// holds, read as Go reads a float: an underscore is allowed between two
// digits (.5_0), nowhere else (._5).
func dotted(v string) string {
	switch v {
	case ".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN":
		return FloatTag
	}
	if strings.Trim(v, "0123456789_.eE+-") == "" && fitsFloat(v) {
		return FloatTag
	}
	return StrTag
}

// decimal decides the common shapes that start with a digit quickly: up
// to 18 digits without a leading zero (an int), digits then a letter no
// number or timestamp has there (a string), digits, a dot and digits (a
// float, or with more dots a string: a version, an address). "" leaves
// v to number.
func decimal(v string) string {
	i := 1
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == len(v) {
		if i <= 18 && (v[0] != '0' || i == 1) {
			return IntTag
		}
		return ""
	}
	switch d := v[i]; {
	case d == 'e' || d == 'E' || d == 'x' || d == 'X' || d == 'o' || d == 'O' || d == 'b' || d == 'B':
		// an exponent or a base prefix: number decides
	case d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z':
		return StrTag
	case d == '.' && i <= 15:
		j := i + 1
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		if j == len(v) && j > i+1 {
			return FloatTag
		}
		if j < len(v) && v[j] == '.' && j > i+1 {
			k := j + 1
			for k < len(v) && (v[k] >= '0' && v[k] <= '9' || v[k] == '.') {
				k++
			}
			if k == len(v) && v[k-1] != '.' {
				return StrTag
			}
		}
	}
	return ""
}

// number resolves a text that starts with a digit or a sign: a timestamp,
// an integer or a float by the rules Tag gives, or a string. yaml12 adds
// YAML 1.2's 0o prefix followed by a sign.
func number(v string, yaml12 bool) string {
	if timestamp(v) {
		return TimestampTag
	}
	p := v
	if strings.IndexByte(p, '_') >= 0 {
		p = strings.ReplaceAll(p, "_", "")
	}
	if goInteger(p) {
		return IntTag
	}
	if floatText(p) && fitsFloat(p) {
		return FloatTag
	}
	// After a 0b (or 0o) prefix, the digits are read in their base with a
	// sign allowed: 0b-1 is -1. After -0b, the digits alone.
	if rest, ok := strings.CutPrefix(p, "0b"); ok && inBase(rest, 2, true) {
		return IntTag
	}
	if rest, ok := strings.CutPrefix(p, "-0b"); ok && inBase(rest, 2, false) {
		return IntTag
	}
	if yaml12 {
		if rest, ok := strings.CutPrefix(p, "0o"); ok && inBase(rest, 8, true) {
			return IntTag
		}
		if rest, ok := strings.CutPrefix(p, "-0o"); ok && inBase(rest, 8, false) {
			return IntTag
		}
	}
	return StrTag
}

// goInteger reports whether p is an integer in Go's syntax with its base
// taken from the prefix (0x, 0o, 0b, or 0 for octal; either letter case),
// an optional sign, that fits in an int64, or in a uint64 without a minus.
func goInteger(p string) bool {
	s := p
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'x' || c == 'X' || c == 'o' || c == 'O') {
			return false
		}
	}
	if _, err := strconv.ParseInt(p, 0, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(p, 0, 64)
	return err == nil
}

// inBase reports whether rest is a number in base (2 or 8) that fits in
// an int64, or a uint64 without a sign; signed allows a sign before it.
func inBase(rest string, base int, signed bool) bool {
	digits := rest
	if signed && digits != "" && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	if digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || int(digits[i]-'0') >= base {
			return false
		}
	}
	if signed {
		if _, err := strconv.ParseInt(rest, base, 64); err == nil {
			return true
		}
		_, err := strconv.ParseUint(rest, base, 64)
		return err == nil
	}
	_, err := strconv.ParseInt("-"+rest, base, 64)
	return err == nil
}

// floatText reports whether p is a decimal float as YAML writes one: a
// sign or not, digits with a dot and more digits or not, or a dot and
// digits, then an exponent or not.
func floatText(p string) bool {
	i := 0
	if i < len(p) && (p[i] == '+' || p[i] == '-') {
		i++
	}
	digits := 0
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
		digits++
	}
	if i < len(p) && p[i] == '.' {
		i++
		frac := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
			frac++
		}
		if digits == 0 && frac == 0 {
			return false
		}
	} else if digits == 0 {
		return false
	}
	if i < len(p) && (p[i] == 'e' || p[i] == 'E') {
		i++
		if i < len(p) && (p[i] == '+' || p[i] == '-') {
			i++
		}
		exp := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(p)
}

// fitsFloat reports whether the float text p is within a float64's range
// (1e400 is not: it is read as a string).
func fitsFloat(p string) bool {
	_, err := strconv.ParseFloat(p, 64)
	return err == nil
}

// timestampLayouts are the shapes of a timestamp, as Go's time package
// spells them: a date and time with a zone (T or t between them), a date
// and time without one (a space between), and a date alone. Month, day,
// hour, minute and second take one digit or two; the fraction of a second
// is optional.
var timestampLayouts = [...]string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// timestamp reports whether v is a timestamp: four digits and a dash,
// then the rest of one of timestampLayouts.
func timestamp(v string) bool {
	if len(v) < 8 || v[4] != '-' {
		return false
	}
	for i := range 4 {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, v); err == nil {
			return true
		}
	}
	return false
}

// sexagesimal reports whether s is a base-60 number of YAML 1.1:
// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
func sexagesimal(s string) bool {
	if strings.IndexByte(s, ':') < 0 {
		return false
	}
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if len(t) < len(s)-1 {
		return false // two signs
	}
	head, rest, _ := strings.Cut(t, ":")
	if head == "" || head[0] < '0' || head[0] > '9' || strings.Trim(head, "0123456789_") != "" {
		return false
	}
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		if strings.Trim(rest[dot+1:], "0123456789_") != "" {
			return false
		}
		rest = rest[:dot]
	}
	for _, part := range strings.Split(rest, ":") {
		if len(part) == 0 || len(part) > 2 || strings.Trim(part, "0123456789") != "" || len(part) == 2 && part[0] > '5' {
			return false
		}
	}
	return true
}
