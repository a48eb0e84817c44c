package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"kwire/server"
)

func init() {
	commands["serve"] = command{"serve a built site (default dist/) on a local port", cmdServe}
}

func cmdServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kwire serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one; a busy port falls back to a free one)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := checkAddr(*addr); err != nil {
		return usageErr("--addr: %v", err)
	}
	dir := "dist"
	if len(pos) > 1 {
		return usageErr("give one folder to serve, not %d", len(pos))
	}
	if len(pos) > 0 {
		dir = pos[0]
	}
	h, err := server.New(dir)
	if err != nil {
		return fmt.Errorf("%w: run ./build.sh first", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		printLine(stderr, "kwire: %s is busy; serving on a free port", *addr)
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return err
	}
	printLine(stdout, "kwire: serving %s at http://%s/ (port %d)", dir, ln.Addr(), ln.Addr().(*net.TCPAddr).Port)
	err = server.NewServer(h).Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// checkAddr checks that an address is HOST:PORT with a numeric port (HOST
// may be empty, for every interface), so that a typo fails instead of
// being looked up as a service name or served elsewhere.
func checkAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not HOST:PORT (such as 127.0.0.1:8080 or :8080)", addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("%q: the port must be a number from 0 to 65535, not %q", addr, port)
	}
	if strings.ContainsAny(host, " /") {
		return fmt.Errorf("%q: bad host %q", addr, host)
	}
	return nil
}
