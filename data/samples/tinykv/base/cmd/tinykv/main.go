// Command tinykv serves a store over TCP.
package main

import (
	"flag"
	"log"
	"net"
	"os"

	"example.com/tinykv/server"
	"example.com/tinykv/snapshot"
	"example.com/tinykv/store"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7070", "listen address")
	snap := flag.String("snapshot", "", "load this snapshot at start")
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
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal((&server.Server{Store: s}).Serve(l))
}
