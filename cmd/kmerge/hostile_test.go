package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kmerge/kmerge/internal/hostile"
)

// The budget of a hostile input (docs/reliability.md): it fails or
// finishes within hostileCPU of processor time (2 s on 2 cores) and
// hostileRSS of memory. The machine is shared, so time is measured as the
// processor time the run used, not as the time it took.
const (
	hostileCPU = 4 * time.Second
	hostileRSS = 200 << 20
	// a run that has not ended by then is a hang, and is killed; one
	// above hostileKill of memory too, so that a regression cannot take
	// the machine down
	hostileTimeout = 60 * time.Second
	hostileKill    = 1 << 30
)

// hostileRun is what one run of a case cost.
type hostileRun struct {
	code           int
	stdout, stderr string
	wall, cpu      time.Duration
	rss            int64 // peak resident memory, bytes
	killed         string
}

// runHostile runs the built kmerge on a case written in dir, as a
// subprocess whose processor time and peak memory the kernel measures.
func runHostile(t testing.TB, bin, dir string, c hostile.Case) hostileRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, c.Args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	parentPeak := procBytes(os.Getpid(), "VmHWM:")
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var run hostileRun
	type watch struct {
		killed string
		peak   int64
	}
	done, watched := make(chan struct{}), make(chan watch, 1)
	go func() {
		// The watchdog: memory far above the budget ends the run. It also
		// keeps the highest peak it reads (VmHWM): the kernel's figure
		// after the run (rusage) is at least the peak of this process's
		// memory when the child started (Go starts children with vfork,
		// and the child's peak starts from the memory it shared).
		var w watch
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				watched <- w
				return
			case <-tick.C:
				w.peak = max(w.peak, procBytes(cmd.Process.Pid, "VmHWM:"))
				if w.peak > hostileKill {
					_ = cmd.Process.Kill()
					w.killed = fmt.Sprintf("killed above %d MB", hostileKill>>20)
					watched <- w
					return
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	w := <-watched
	run.killed, run.rss = w.killed, w.peak
	run.wall = time.Since(start)
	if ctx.Err() != nil {
		run.killed = fmt.Sprintf("killed after %v", hostileTimeout)
	}
	run.code = cmd.ProcessState.ExitCode()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	if cpu, maxrss, ok := rusage(cmd.ProcessState); ok {
		run.cpu = cpu
		// exact when above this process's peak at the start (see the
		// watchdog); otherwise the child's peak was below that, and the
		// watchdog's reading is the figure
		if maxrss > parentPeak {
			run.rss = maxrss
		}
	}
	run.stdout, run.stderr = stdout.String(), stderr.String()
	return run
}

// procBytes reads a memory figure of a process from /proc/PID/status
// ("VmHWM:", its peak resident memory), in bytes; 0 when it cannot.
func procBytes(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// TestHostileCorpus runs every case of the hostile corpus (package
// internal/hostile: the inputs that once took minutes and gigabytes) through
// the kmerge binary, as a user would, and checks the outcome each must
// have now (its exit code, and the limit named in the error where there is
// one) and that it stays within the budget: hostileCPU of processor time,
// hostileRSS of memory at its peak. BenchmarkHostileCorpus reports the
// figures.
func TestHostileCorpus(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the budget is measured with Linux's rusage and /proc")
	}
	bin := kmergeBinary(t)
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel() // as many at once as there are processors: each has its own figures
			dir := t.TempDir()
			if err := c.Write(dir); err != nil {
				t.Fatal(err)
			}
			run := runHostile(t, bin, dir, c)
			t.Logf("%s: exit %d, %v of processor time (%v), %d MB at most", c.Why, run.code, run.cpu.Round(time.Millisecond), run.wall.Round(time.Millisecond), run.rss>>20)
			if run.killed != "" {
				t.Fatalf("%s", run.killed)
			}
			if run.code != c.Code {
				t.Errorf("exit %d, want %d; stderr:\n%.2000s", run.code, c.Code, run.stderr)
			}
			if !strings.Contains(run.stderr, c.Stderr) {
				t.Errorf("stderr does not say %q:\n%.2000s", c.Stderr, run.stderr)
			}
			switch {
			case !strings.Contains(run.stdout, c.Stdout):
				t.Errorf("stdout does not say %q:\n%.2000s", c.Stdout, run.stdout)
			case c.Code == 0 && run.stdout == "":
				t.Errorf("no output")
			case c.Code != 0 && c.Stdout == "" && run.stdout != "":
				t.Errorf("output on failure: %.200s", run.stdout)
			}
			if run.cpu > hostileCPU || run.rss > hostileRSS {
				// A peak's figures depend on when the collector ran, which
				// processes beside the run delay (a run of 157–171 MB alone
				// peaked at 205 and 207 MB beside the other packages' tests,
				// 2026-11-30): a run over the budget is run again, and the
				// lower figures count; a regression is over it both times.
				again := runHostile(t, bin, dir, c)
				t.Logf("over the budget: again, %v of processor time, %d MB at most", again.cpu.Round(time.Millisecond), again.rss>>20)
				run.cpu, run.rss = min(run.cpu, again.cpu), min(run.rss, again.rss)
			}
			if run.cpu > hostileCPU {
				t.Errorf("%v of processor time, more than %v", run.cpu, hostileCPU)
			}
			if run.rss > hostileRSS {
				t.Errorf("%d MB of memory, more than %d MB", run.rss>>20, hostileRSS>>20)
			}
		})
	}
}

// BenchmarkHostileCorpus reports, for each case of the hostile corpus, the
// time of a run of the kmerge binary (ns/op, as it took: on a shared
// machine, cpu-ms/op is the steadier figure) and its peak memory
// (peak-MB), against the budget of 2 s on 2 cores and 200 MB:
//
//	go test ./cmd/kmerge -run '^$' -bench HostileCorpus -benchtime 3x
func BenchmarkHostileCorpus(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the budget is measured with Linux's rusage and /proc")
	}
	bin := kmergeBinary(b)
	for _, c := range hostile.Cases() {
		b.Run(c.Name, func(b *testing.B) {
			dir := b.TempDir()
			if err := c.Write(dir); err != nil {
				b.Fatal(err)
			}
			var cpu time.Duration
			var peak int64
			for b.Loop() {
				run := runHostile(b, bin, dir, c)
				if run.killed != "" || run.code != c.Code {
					b.Fatalf("%s, exit %d: %.500s", run.killed, run.code, run.stderr)
				}
				cpu += run.cpu
				peak = max(peak, run.rss)
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
}
