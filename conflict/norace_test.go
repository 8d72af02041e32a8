//go:build !race

package conflict_test

const raceEnabled = false
