package fastyaml

import (
	"testing"
)

// TestExhaustiveShort reads every text of up to three characters (four
// without the race detector) made of YAML's indicators, blanks, a letter
// and a few others, alone, as a mapping's value, as a list item, as an
// explicit key, inside a flow sequence and a flow mapping, and as the
// value of a nested key, with Parse and with yaml.v3: each is read into the same trees, refused by
// both, or refused or read on purpose (outcome); comments may sit on
// other nodes (placed), as FuzzDifferential allows. This is where the
// ten-minute fuzz campaign of 2026-11-29 pointed: "[- ]", "-\t", "a:\n|",
// "[?]", "&a,:", "- ?\n#c", "a: \n \t" were each read otherwise than
// yaml.v3 reads or refuses them, and the four-character run found 1,500
// such texts in 736,230; after the three first places, the four others
// found 14 more ("k: []\n \t", "[a:\n]", "? !t\n- a", "[? : a]").
func TestExhaustiveShort(t *testing.T) {
	alphabet := []byte("[]{},:-? \na#\"'!&*|>\t.%")
	longest := 4
	if raceEnabled || testing.Short() {
		longest = 3
	}
	n, bad := 0, 0
	buf := make([]byte, 0, longest)
	var walk func(left int)
	walk = func(left int) {
		if left == 0 {
			for _, pre := range []string{"", "a: ", "- ", "? ", "k: [", "k: {", "k:\n  x: "} {
				in := pre + string(buf)
				n++
				switch o, d := outcome(in); o {
				case bothEqual, bothRefuse, refusedOnly, readOnly, placed, slotted, ended:
				default:
					if bad++; bad <= 20 {
						t.Errorf("%q: %s %s", in, o, d)
					}
				}
			}
			return
		}
		for _, c := range alphabet {
			buf = append(buf, c)
			walk(left - 1)
			buf = buf[:len(buf)-1]
		}
	}
	for l := 1; l <= longest; l++ {
		walk(l)
	}
	if bad > 0 {
		t.Errorf("%d of %d texts read otherwise than yaml.v3 reads them", bad, n)
	}
}
