package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// A run that writes an output folder (apply --output-dir) handles SIGINT
// and SIGTERM itself, so that a signal never leaves the folder
// half-written, nor temporary files in it. A signal cancels the context of
// the whole run. Before the writing starts (the inputs being read and
// patched: nothing written yet), kmerge.Apply stops at its next file,
// document or patch and the run ends, after letting go of the folder's
// lock. While the files are written, the writing stops and undoes what it
// had done. Either way the exit code is 128 plus the signal's number, as a
// shell reports a command a signal ended: 130 for SIGINT (Ctrl-C), 143 for
// SIGTERM.

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
// folder. The first one cancels ctx, with a signalError as its cause;
// later ones are ignored (taken and dropped), so that the undoing of a
// cancelled write completes.
type signals struct {
	ch    chan os.Signal
	done  chan struct{} // closed by stop
	ended chan struct{} // closed when the watching goroutine returns
	ctx   context.Context
}

// watchSignals starts watching.
func watchSignals() *signals {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &signals{ch: make(chan os.Signal, 1), done: make(chan struct{}), ended: make(chan struct{}), ctx: ctx}
	signal.Notify(s.ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer close(s.ended)
		select {
		case sig := <-s.ch:
			cancel(signalError{sig})
		case <-s.done:
			cancel(nil)
		}
	}()
	return s
}

// stopped words the error of a run that a signal stopped before it wrote
// anything: "DIR: interrupted by SIGTERM before anything was written".
// Other errors are returned as they are.
func (s *signals) stopped(dir string, err error) error {
	var se signalError
	if err == nil || s.ctx.Err() == nil || !errors.Is(err, s.ctx.Err()) || !errors.As(context.Cause(s.ctx), &se) {
		return err
	}
	return beforeWriteError{dir: dir, sig: se}
}

// beforeWriteError is a run a signal stopped before it wrote anything.
type beforeWriteError struct {
	dir string
	sig signalError
}

func (e beforeWriteError) Error() string {
	return fmt.Sprintf("%s: %s before anything was written", e.dir, e.sig)
}

// Unwrap returns the signal, for signalExit.
func (e beforeWriteError) Unwrap() error { return e.sig }

// stop stops watching: signals have their default effect again. It
// returns once the watching goroutine has.
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
