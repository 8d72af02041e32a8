//go:build race

package next

// raceEnabled: the race detector slows the tests down twenty times or so;
// the long ones do less under it (the plain run of the same tests does it
// all).
const raceEnabled = true
