package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"kwire/server"
)

func init() {
	commands["serve"] = command{"serve a built site (default dist/) on a local port", cmdServe}
}

func cmdServe(args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("kwire serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one; a busy port falls back to a free one)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	dir := "dist"
	if len(pos) > 0 {
		dir = pos[0]
	}
	h, err := server.New(dir)
	if err != nil {
		return fmt.Errorf("%w: run ./build.sh first", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "kwire: serving %s at http://%s/ (port %d)\n", dir, ln.Addr(), ln.Addr().(*net.TCPAddr).Port)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	err = srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
