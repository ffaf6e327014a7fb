package p

import "fmt"

type Server struct {
	addr string
}

func (s *Server) Start() error {
	go func() {
		fmt.Println(s.addr)
	}()
	return nil
}

func (s Server) Addr() string { return s.addr }

func (l *List[T]) Push(v T) {
	l.items = append(l.items, v)
}

func (m Map[K, V]) Len() int {
	return len(m.m)
}

type Store interface {
	Get(key string) string
}

func helper() {}
