//go:build !race

package next

const raceEnabled = false
