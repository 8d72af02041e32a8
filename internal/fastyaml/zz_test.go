package fastyaml
import ("testing";"os";"path/filepath")
func loadZZ(b *testing.B, d string) [][]byte { fs, _ := filepath.Glob(d+"/manifests/*"); var out [][]byte; for _, f := range fs { x, _ := os.ReadFile(f); out = append(out, x) }; return out }
func benchZZ(b *testing.B, d string) { in := loadZZ(b, d); b.ResetTimer(); for range b.N { for _, x := range in { if _, _, err := ParseRanges(x, 1000); err != nil { b.Fatal(err) } } } }
func BenchmarkZZLF(b *testing.B) { benchZZ(b, "/tmp/lfc") }
func BenchmarkZZCRLF(b *testing.B) { benchZZ(b, "/tmp/crlfc") }
