package report

import "sync"

// concurrent is a Writer that hands every call to each of its writers on a
// goroutine of the writer's own, in order: the outputs of one report (JSON,
// Markdown, JUnit, HTML) are rendered side by side instead of one after
// the other. The records it is handed are shared by the writers, which
// only read them.
//
// An error from a writer is returned by a later call (Case returns the
// first one seen so far, End the first in writer order once all are done);
// stop ends the goroutines of a report abandoned before End.
type concurrent struct {
	lanes []chan func(Writer) error
	errs  []error // errs[i] is written by lane i's goroutine until done
	done  sync.WaitGroup
	mu    sync.Mutex
	first error // the first error any lane met, under mu
	ended bool
}

// laneDepth is how many calls a writer may fall behind the reader.
const laneDepth = 64

func newConcurrent(ws []Writer) *concurrent {
	c := &concurrent{lanes: make([]chan func(Writer) error, len(ws)), errs: make([]error, len(ws))}
	for i, w := range ws {
		lane := make(chan func(Writer) error, laneDepth)
		c.lanes[i] = lane
		c.done.Add(1)
		go func() {
			defer c.done.Done()
			for op := range lane {
				if c.errs[i] != nil {
					continue // drain
				}
				if err := op(w); err != nil {
					c.errs[i] = err
					c.mu.Lock()
					if c.first == nil {
						c.first = err
					}
					c.mu.Unlock()
				}
			}
		}()
	}
	return c
}

func (c *concurrent) send(op func(Writer) error) error {
	c.mu.Lock()
	err := c.first
	c.mu.Unlock()
	if err != nil {
		return err
	}
	for _, lane := range c.lanes {
		lane <- op
	}
	return nil
}

func (c *concurrent) Begin(m Meta) error {
	return c.send(func(w Writer) error { return w.Begin(m) })
}

func (c *concurrent) Case(r *CaseRecord) error {
	return c.send(func(w Writer) error { return w.Case(r) })
}

// End finishes every writer and waits for them all.
func (c *concurrent) End(s Summary) error {
	c.send(func(w Writer) error { return w.End(s) }) // an error is in errs
	c.stop()
	for _, err := range c.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// stop closes the lanes and waits for the writers to finish what they
// were handed. It may be called more than once.
func (c *concurrent) stop() {
	if c.ended {
		return
	}
	c.ended = true
	for _, lane := range c.lanes {
		close(lane)
	}
	c.done.Wait()
}
