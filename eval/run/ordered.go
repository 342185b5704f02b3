package run

import (
	"context"
	"iter"
	"sync"
)

// ordered runs work on items with n workers and hands the results to emit
// in item order. Items are pulled one at a time, and at most 4n are in
// flight or waiting to be emitted, so one slow case never lets finished
// ones pile up without bound, and a streamed selection is never held
// whole. It stops at the first emit error, at an error from items, or when
// ctx is done.
func ordered[T any](ctx context.Context, items iter.Seq2[Item, error], n int, work func(context.Context, Item) T, emit func(T) error) error {
	if n < 1 {
		n = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type job struct {
		i  int
		it Item
	}
	type done struct {
		i int
		v T
	}
	window := make(chan struct{}, 4*n) // slots for items dispatched but not yet emitted
	jobs := make(chan job)
	results := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				v := work(ctx, j.it)
				select {
				case results <- done{j.i, v}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	// Written by the dispatcher, read once it is over.
	var srcErr error
	total, complete := 0, false
	dispatched := make(chan struct{})
	go func() {
		defer close(dispatched)
		defer close(jobs)
		i := 0
		for it, err := range items {
			if err != nil {
				srcErr = err
				cancel()
				return
			}
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job{i, it}:
			case <-ctx.Done():
				return
			}
			i++
		}
		total, complete = i, true
	}()
	go func() { wg.Wait(); close(results) }()

	pending := map[int]T{}
	next := 0
	var err error
	for r := range results {
		if err != nil {
			continue // drain
		}
		pending[r.i] = r.v
		for {
			v, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			if e := emit(v); e != nil {
				err = e
				cancel()
				break
			}
		}
	}
	<-dispatched
	switch {
	case err != nil:
		return err
	case srcErr != nil:
		return srcErr
	case !complete || next < total:
		if e := ctx.Err(); e != nil {
			return e
		}
		return context.Canceled
	}
	return nil
}
