//go:build !race

package fastyaml

const raceEnabled = false
