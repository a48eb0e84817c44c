package realkafka

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// root is the repository's folder.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// script runs one of the repository's scripts; a failure ends the test
// with its output.
func script(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(root(t), "scripts", name), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out.String(), errb.String())
	}
	t.Logf("scripts/%s %s: %.1f s", name, strings.Join(args, " "), time.Since(start).Seconds())
	return out.String()
}

// cluster is one started by scripts/realkafka.sh.
type cluster struct {
	dir string
	env map[string]string
}

// startCluster starts Kafka version with nodes nodes (stopped at the end of
// the test, and by the script's watchdog after timeout seconds whatever
// happens); record, when not empty, is a pcap of the cluster's whole life;
// more are realkafka.sh start's other flags.
func startCluster(t *testing.T, version string, nodes, timeout int, record string, more ...string) *cluster {
	t.Helper()
	dir := t.TempDir()
	args := []string{"start", dir, "--version", version, "--nodes", strconv.Itoa(nodes), "--timeout", strconv.Itoa(timeout)}
	if record != "" {
		args = append(args, "--record", record)
	}
	args = append(args, more...)
	c := &cluster{dir: dir}
	t.Cleanup(func() { c.stop(t) })
	script(t, "realkafka.sh", args...)
	c.env = readEnv(t, filepath.Join(dir, "env"))
	return c
}

func (c *cluster) stop(t *testing.T) {
	if _, err := os.Stat(filepath.Join(c.dir, "pids")); err != nil {
		return
	}
	script(t, "realkafka.sh", "stop", c.dir)
}

// readEnv reads the KEY=VALUE lines of DIR/env (values maybe 'quoted').
func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		env[k] = strings.Trim(v, "'")
	}
	return env
}

// ports are the cluster's ports of one kind: KAFKA_PORTS,
// KAFKA_CLIENT_PORTS or KAFKA_CONTROLLER_PORTS.
func (c *cluster) ports(kind string) map[uint16]bool {
	out := map[uint16]bool{}
	for _, f := range strings.Fields(c.env[kind]) {
		p, _ := strconv.Atoi(f)
		out[uint16(p)] = true
	}
	return out
}

// keepDir is where the captures go: KWIRE_REAL_KEEP/name when set, else a
// temporary folder.
func keepDir(t *testing.T, name string) string {
	if k := os.Getenv("KWIRE_REAL_KEEP"); k != "" {
		d := filepath.Join(k, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// wantRecords reads W.records: TOPIC, SRC, N per line.
type recordSpec struct {
	topic, src string
	n          int
}

func readRecords(t *testing.T, path string) []recordSpec {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recordSpec
	s := bufio.NewScanner(f)
	for s.Scan() {
		p := strings.Split(s.Text(), "\t")
		if len(p) != 3 {
			continue
		}
		n, _ := strconv.Atoi(p[2])
		out = append(out, recordSpec{p[0], p[1], n})
	}
	return out
}

// wire is what tcpdump saw, reassembled here without package capture, to
// check it against: each connection's streams split into frames.
type wire struct {
	frames map[string]int // frameKey -> count
	n      int
	tls    map[string]bool // connection (client→broker) -> TLS
	mid    map[string]bool // connections without a SYN in the capture
	// tails: the bytes after a stream's last whole frame (a connection
	// torn down mid-frame: the process exited, its peer reset).
	tails map[string][]byte
	holes []string
}

func frameKey(src, dst string, b []byte) string { return src + ">" + dst + "|" + string(b) }

type segment struct {
	seq  uint32
	data []byte
}

type stream struct {
	src, dst string
	isn      uint32
	syn      bool
	segs     []segment
}

// readWire reassembles every TCP stream of a pcap: on loopback nothing is
// reordered or lost unless tcpdump dropped it, which is reported.
func readWire(t *testing.T, path string) *wire {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	streams := map[string]*stream{} // the latest connection of each four-tuple
	var all []*stream               // every connection, in order
	src := gopacket.NewPacketSource(r, r.LinkType())
	src.NoCopy = false
	for p := range src.Packets() {
		ip4, _ := p.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
		tcp, _ := p.Layer(layers.LayerTypeTCP).(*layers.TCP)
		if ip4 == nil || tcp == nil {
			continue
		}
		s, d := fmt.Sprintf("%s:%d", ip4.SrcIP, tcp.SrcPort), fmt.Sprintf("%s:%d", ip4.DstIP, tcp.DstPort)
		k := s + ">" + d
		st := streams[k]
		if st != nil && tcp.SYN && st.syn && tcp.Seq+1 != st.isn {
			// The same four-tuple again with a new initial sequence
			// number: a new connection (Linux reuses a source port to
			// the same broker once the old connection is gone).
			st = nil
		}
		if st == nil {
			st = &stream{src: s, dst: d, isn: tcp.Seq}
			streams[k] = st
			all = append(all, st)
		}
		if tcp.SYN {
			st.syn, st.isn = true, tcp.Seq+1
		}
		if len(tcp.Payload) > 0 {
			st.segs = append(st.segs, segment{tcp.Seq, append([]byte(nil), tcp.Payload...)})
		}
	}
	w := &wire{frames: map[string]int{}, tls: map[string]bool{}, mid: map[string]bool{}, tails: map[string][]byte{}}
	for _, st := range all {
		k := st.src + ">" + st.dst // the connection, client→broker or back
		var buf []byte
		next := st.isn
		sort.SliceStable(st.segs, func(i, j int) bool { return int32(st.segs[i].seq-st.segs[j].seq) < 0 })
		for _, sg := range st.segs {
			off := int32(sg.seq - next)
			switch {
			case off > 0:
				w.holes = append(w.holes, fmt.Sprintf("%s: %d bytes missing at stream offset %d", k, off, next-st.isn))
				buf = nil // frames after a hole are not compared
				next = sg.seq
			case off < 0:
				if int(-off) >= len(sg.data) {
					continue // a retransmission
				}
				sg.data = sg.data[-off:]
			}
			buf = append(buf, sg.data...)
			next += uint32(len(sg.data))
		}
		if !st.syn {
			w.mid[k] = true
			continue
		}
		if len(buf) > 0 && buf[0] == 0x16 {
			w.tls[k] = true
			continue
		}
		for len(buf) >= 4 {
			n := 4 + int(binary.BigEndian.Uint32(buf))
			if n > len(buf) {
				break
			}
			w.frames[frameKey(st.src, st.dst, buf[:n])]++
			w.n++
			buf = buf[n:]
		}
		if len(buf) > 0 {
			w.tails[k] = buf
		}
	}
	return w
}
