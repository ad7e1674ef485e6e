// go-ret: many goroutines call step(), a function with several return
// statements whose stack grows (deep recursion over large frames) while it
// runs, and allocation that makes the GC shrink and scan the stacks.  A
// return probe that rewrites step()'s return address on the stack (a
// uretprobe) crashes it; plain probes on its return instructions do not.
//
// Usage: go-ret [GOROUTINES [CALLS]] (default 64 200).  Prints
// "calls=N sum=S neg=K": how many step() calls returned, the sum of their
// results and how many were negative.  With a third argument "once", only
// step(35) is called, once, and its result printed (for gdb).
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

var sink []byte

// descend recurses d levels deep over a 1 KiB frame: the goroutine's stack
// grows (and is copied) several times before it returns.
//
//go:noinline
func descend(d, x int) int {
	var pad [1024]byte
	pad[d%1024] = byte(x)
	if d == 0 {
		return x
	}
	return descend(d-1, x+1) + int(pad[d%1024]&1)
}

// step has five returns; the one for x%5 == 0 grows the stack under it.
//
//go:noinline
func step(x int) int {
	if x%7 == 0 {
		return -x
	}
	if x%5 == 0 {
		return descend(x%48+16, x)
	}
	if x%3 == 0 {
		sink = make([]byte, 4096+x%4096)
		return int(sink[x%len(sink)]) + 3*x
	}
	if x%2 == 0 {
		return x / 2
	}
	return 2*x + 1
}

func main() {
	g, n := 64, 200
	if len(os.Args) > 1 {
		g, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		n, _ = strconv.Atoi(os.Args[2])
	}
	if len(os.Args) > 3 && os.Args[3] == "once" {
		fmt.Printf("step(35)=%d\n", step(35))
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	calls, sum, neg := 0, 0, 0
	for i := 0; i < g; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s, k := 0, 0
			for j := 0; j < n; j++ {
				r := step(i*n + j)
				s += r
				if r < 0 {
					k++
				}
			}
			mu.Lock()
			calls += n
			sum += s
			neg += k
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	fmt.Printf("calls=%d sum=%d neg=%d\n", calls, sum, neg)
}
