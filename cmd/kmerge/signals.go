package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/kmerge/kmerge"
)

// A run that writes an output folder (apply --output-dir) handles SIGINT
// and SIGTERM itself, so that a signal never leaves the folder
// half-written, nor temporary files in it. Before the writing starts (the
// inputs being read and patched: nothing written yet), a signal ends the
// run at once, after letting go of the folder's lock. While the files are
// written, it cancels the writing, which undoes what it had done. Either
// way the exit code is 128 plus the signal's number, as a shell reports a
// command a signal ended: 130 for SIGINT (Ctrl-C), 143 for SIGTERM.

// signalError is the cause of a run cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return "interrupted by " + signalName(e.sig) }

// exitCode is 128 plus the signal's number.
func (e signalError) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// signals watches for SIGINT and SIGTERM during a run that writes a
// folder.
type signals struct {
	ch      chan os.Signal
	done    chan struct{} // closed by stop
	ended   chan struct{} // closed when the watching goroutine returns
	ctx     context.Context
	mu      sync.Mutex
	writing bool
	lock    *kmerge.DirLock // the folder's, once taken
}

// watchSignals starts watching, for a run that writes the folder dir;
// before the writing starts (startWriting), a signal prints why to stderr,
// lets go of the folder's lock (setLock) and exits.
func watchSignals(dir string, stderr io.Writer) *signals {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &signals{ch: make(chan os.Signal, 1), done: make(chan struct{}), ended: make(chan struct{}), ctx: ctx}
	signal.Notify(s.ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer close(s.ended)
		select {
		case sig := <-s.ch:
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.writing {
				fmt.Fprintf(stderr, "kmerge: %s: %s before anything was written\n", dir, signalError{sig})
				s.lock.Unlock() //nolint:errcheck // exiting
				os.Exit(signalError{sig}.exitCode())
			}
			cancel(signalError{sig})
		case <-s.done:
			cancel(nil)
		}
	}()
	return s
}

// setLock gives the folder's lock, for a signal to let go of.
func (s *signals) setLock(l *kmerge.DirLock) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lock = l
}

// startWriting returns the context that a signal cancels from now on.
func (s *signals) startWriting() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writing = true
	return s.ctx
}

// stop stops watching: signals have their default effect again. It
// returns once the watching goroutine has (a signal it took before the
// writing started ends the process instead), so that the lock is not let
// go of twice at once.
func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.done)
	<-s.ended
}

// signalExit returns the exit code of a run a signal stopped.
func signalExit(err error) (int, bool) {
	var se signalError
	if errors.As(err, &se) {
		return se.exitCode(), true
	}
	return 0, false
}
