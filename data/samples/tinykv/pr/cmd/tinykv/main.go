// Command tinykv serves a store over TCP.
package main

import (
	"flag"
	"log"
	"net"
	"os"
	"time"

	"example.com/tinykv/server"
	"example.com/tinykv/snapshot"
	"example.com/tinykv/store"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7070", "listen address")
	snap := flag.String("snapshot", "", "load this snapshot at start")
	sweep := flag.Duration("sweep-interval", time.Second, "how often expired keys are removed")
	flag.Parse()

	s := store.New()
	if *snap != "" {
		f, err := os.Open(*snap)
		if err != nil {
			log.Fatal(err)
		}
		if err := snapshot.Load(f, s); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	stop := s.StartSweeper(*sweep)
	defer stop()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal((&server.Server{Store: s}).Serve(l))
}
