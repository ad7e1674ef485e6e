// Go structs, methods, strings and goroutines (t0370).
package main

import (
	"fmt"
	"os"
	"sync"
)

type Item struct {
	Price int64
	Qty   int64
	Name  string
}

type Cart struct {
	Total int64
	Count int64
	Owner string
}

//go:noinline
func F(a int64, b int64) int64 {
	return a*3 + b
}

//go:noinline
func (c *Cart) Add(it *Item, n int64) int64 {
	c.Total += it.Price * n
	c.Count += n
	return c.Total
}

//go:noinline
func Greet(name string, times int64) int64 {
	return int64(len(name)) * times
}

func main() {
	c := &Cart{Owner: "ann"}
	// Strings made at run time: the probe reads what is in memory, and
	// a literal's page may not be yet.
	items := []Item{{100, 1, fmt.Sprint("apple")}, {250, 2, fmt.Sprint("bread")},
		{75, 3, fmt.Sprint("cheese")}}
	who := fmt.Sprint("gopher")
	var r int64
	for i := range items {
		r += c.Add(&items[i], int64(i+1))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(k int64) {
			defer wg.Done()
			v := F(k, int64(len(os.Args))) + Greet(who, k)
			mu.Lock()
			r += v
			mu.Unlock()
		}(int64(i) + 10)
	}
	wg.Wait()
	fmt.Printf("r=%d total=%d count=%d\n", r, c.Total, c.Count)
}
