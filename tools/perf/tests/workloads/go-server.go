// Go names for perf probe (t0360): functions, methods on pointer
// receivers, goroutines.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

type Server struct {
	hits int
}

//go:noinline
func handle(code int) int {
	return code*2 + 1
}

//go:noinline
func (s *Server) poll(n int) int {
	s.hits += n
	return s.hits
}

func main() {
	rounds := 1
	if len(os.Args) > 1 {
		rounds, _ = strconv.Atoi(os.Args[1])
	}
	s := &Server{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for i := 0; i < rounds; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			mu.Lock()
			sum += handle(20 + i)
			sum += s.poll(i)
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	fmt.Println(sum)
}
