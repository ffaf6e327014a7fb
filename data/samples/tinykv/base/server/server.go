// Package server answers tinykv protocol requests.
package server

import (
	"bufio"
	"fmt"
	"net"
	"strings"

	"example.com/tinykv/internal/proto"
	"example.com/tinykv/store"
)

// Server serves one store.
type Server struct {
	Store *store.Store
}

// Handle answers one request line.
func (srv *Server) Handle(line string) string {
	cmd, err := proto.Parse(line, 3)
	if err != nil {
		return "ERR " + err.Error()
	}
	switch cmd.Name {
	case "SET":
		if len(cmd.Args) != 2 {
			return "ERR usage: SET key value"
		}
		srv.Store.Set(cmd.Args[0], cmd.Args[1])
		return "OK"
	case "GET":
		if len(cmd.Args) != 1 {
			return "ERR usage: GET key"
		}
		if v, ok := srv.Store.Get(cmd.Args[0]); ok {
			return "VALUE " + v
		}
		return "NIL"
	case "DEL":
		if len(cmd.Args) != 1 {
			return "ERR usage: DEL key"
		}
		if srv.Store.Delete(cmd.Args[0]) {
			return "1"
		}
		return "0"
	case "KEYS":
		return strings.TrimSpace("KEYS " + strings.Join(srv.Store.Keys(), " "))
	}
	return fmt.Sprintf("ERR unknown command %q", cmd.Name)
}

// Serve answers requests on every connection accepted from l until l is
// closed.
func (srv *Server) Serve(l net.Listener) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			return err
		}
		go srv.serveConn(conn)
	}
}

func (srv *Server) serveConn(conn net.Conn) {
	defer conn.Close()
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		fmt.Fprintln(conn, srv.Handle(sc.Text()))
	}
}
