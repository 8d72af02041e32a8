//go:build race

package tree

// raceEnabled: the race detector slows the tests down ten to twenty
// times; the attack harnesses, which run one case at a time, check a
// sample of their cases under it (raceSkip), the plain run all of them.
const raceEnabled = true
