package run

import (
	"context"
	"sync"
)

// ordered runs work on items with n workers and hands the results to emit
// in item order. At most 4n items are in flight or waiting to be emitted, so
// one slow case never lets finished ones pile up without bound. It stops at
// the first emit error or when ctx is done.
func ordered[T any](ctx context.Context, items []Item, n int, work func(context.Context, Item) T, emit func(T) error) error {
	if n < 1 {
		n = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type done struct {
		i int
		v T
	}
	window := make(chan struct{}, 4*n) // slots for items dispatched but not yet emitted
	jobs := make(chan int)
	results := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				v := work(ctx, items[i])
				select {
				case results <- done{i, v}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range items {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
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
	if err != nil {
		return err
	}
	if next < len(items) {
		return ctx.Err()
	}
	return nil
}
