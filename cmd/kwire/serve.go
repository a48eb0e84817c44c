package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
)

func init() {
	commands["serve"] = command{"serve a built site (default dist/) on a local port", cmdServe}
}

func cmdServe(args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("kwire serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	dir := "dist"
	if len(pos) > 0 {
		dir = pos[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("no site at %s: run ./build.sh first", dir)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "kwire: serving %s at http://%s/\n", dir, ln.Addr())
	err = http.Serve(ln, http.FileServer(http.Dir(dir)))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
