package capturetest

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec"
	"kwire/schemas/sets"
)

// A Proxy forwards one local port to a broker and rewrites the broker
// ports in the responses of the APIs in Rewrite (through kwire's codec:
// decoded, edited in their JSON form, encoded again), as a Kafka proxy
// does, leaving the others as the broker wrote them: a proxy that
// rewrites some APIs and not others leaks the brokers' own addresses.
type Proxy struct {
	ln      net.Listener
	target  string
	ports   map[string]string // a broker's port → the proxy's port for it
	rewrite map[int16]bool
	wg      sync.WaitGroup
	mu      sync.Mutex
	err     error
}

// StartProxies starts a proxy on 127.0.0.1 for each broker, and returns
// them with their addresses, in the brokers' order.
func StartProxies(brokers []string, rewrite map[int16]bool) ([]*Proxy, []string, error) {
	ports := map[string]string{}
	var ps []*Proxy
	var addrs []string
	for _, a := range brokers {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, p := range ps {
				p.Close()
			}
			return nil, nil, err
		}
		_, bp, _ := net.SplitHostPort(a)
		_, pp, _ := net.SplitHostPort(ln.Addr().String())
		ports[bp] = pp
		ps = append(ps, &Proxy{ln: ln, target: a, ports: ports, rewrite: rewrite})
		addrs = append(addrs, ln.Addr().String())
	}
	for _, p := range ps {
		p.wg.Add(1)
		go p.serve()
	}
	return ps, addrs, nil
}

// Close stops accepting connections; it returns the first response the
// proxy could not rewrite, if any.
func (p *Proxy) Close() error {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *Proxy) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.mu.Unlock()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		b, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		var mu sync.Mutex
		pending := map[int32][2]int16{}
		go func() { // client → broker, noting each request's API and version
			defer b.Close()
			forwardFrames(c, b, func(f []byte) []byte {
				if len(f) >= 12 {
					mu.Lock()
					pending[int32(binary.BigEndian.Uint32(f[8:]))] = [2]int16{int16(binary.BigEndian.Uint16(f[4:])), int16(binary.BigEndian.Uint16(f[6:]))}
					mu.Unlock()
				}
				return f
			})
		}()
		go func() { // broker → client, rewritten
			defer c.Close()
			forwardFrames(b, c, func(f []byte) []byte {
				if len(f) < 8 {
					return f
				}
				mu.Lock()
				kv, ok := pending[int32(binary.BigEndian.Uint32(f[4:]))]
				mu.Unlock()
				if !ok || !p.rewrite[kv[0]] {
					return f
				}
				out, err := p.rewritePorts(f, kv[0], kv[1])
				if err != nil {
					p.fail(err)
					return f
				}
				return out
			})
		}()
	}
}

// forwardFrames copies size-delimited frames from r to w through edit.
func forwardFrames(r io.Reader, w io.Writer, edit func([]byte) []byte) {
	br := bufio.NewReader(r)
	for {
		var size [4]byte
		if _, err := io.ReadFull(br, size[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(size[:])
		if n > 64<<20 {
			return
		}
		f := make([]byte, 4+n)
		copy(f, size[:])
		if _, err := io.ReadFull(br, f[4:]); err != nil {
			return
		}
		if _, err := w.Write(edit(f)); err != nil {
			return
		}
	}
}

var portJSON = regexp.MustCompile(`"Port":\s*(\d+)`)

func (p *Proxy) rewritePorts(frame []byte, key, version int16) ([]byte, error) {
	set, err := sets.ForVersion(key, version, true)
	if err != nil {
		return nil, err
	}
	f, _, err := codec.Decode(frame, codec.DecodeOptions{Set: set, API: set.APIByKey(key), Version: version, Dir: codec.Response})
	if err != nil {
		return nil, err
	}
	j, err := f.JSON(len(frame))
	if err != nil {
		return nil, err
	}
	j = portJSON.ReplaceAllFunc(j, func(m []byte) []byte {
		if to, ok := p.ports[string(portJSON.FindSubmatch(m)[1])]; ok {
			return []byte(`"Port":` + to)
		}
		return m
	})
	if err := f.SetJSON(j); err != nil {
		return nil, err
	}
	return f.Encode()
}

// ProxiedTraffic records a kgo client that talks to brokers through a
// proxy per broker (StartProxies) that rewrites the responses of the
// APIs in rewrite: Metadata, then on one connection FindCoordinator and
// DescribeCluster, which name the same nodes; CreateTopics and a Produce
// of topic orders; and, with two brokers or more, a Produce v12 sent to
// one that does not lead the partition, whose NOT_LEADER_OR_FOLLOWER
// answer names the leader in NodeEndpoints (KIP-951) when the broker
// fills it. It returns the recorder and the proxies' addresses.
func ProxiedTraffic(ctx context.Context, brokers []string, rewrite map[int16]bool) (*Recorder, []string, error) {
	ps, addrs, err := StartProxies(brokers, rewrite)
	if err != nil {
		return nil, nil, err
	}
	rec := &Recorder{}
	err = proxiedClient(ctx, rec, addrs[0])
	for _, p := range ps {
		if perr := p.Close(); err == nil && perr != nil {
			err = errors.New("proxy: " + perr.Error())
		}
	}
	return rec, addrs, err
}

func proxiedClient(ctx context.Context, rec *Recorder, seed string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(seed), kgo.Dialer(rec.Dial), kgo.ClientID("proxied"),
		kgo.DefaultProduceTopic("orders"), kgo.UnknownTopicRetries(50), kgo.MetadataMinAge(50*time.Millisecond))
	if err != nil {
		return err
	}
	defer cl.Close()
	meta := kmsg.NewPtrMetadataRequest()
	resp, err := meta.RequestWith(ctx, cl)
	if err != nil {
		return err
	}
	ct := kmsg.NewPtrCreateTopicsRequest()
	ct.Topics = []kmsg.CreateTopicsRequestTopic{{Topic: "orders", NumPartitions: 1, ReplicationFactor: 1}}
	if _, err := ct.RequestWith(ctx, cl); err != nil {
		return err
	}
	b0 := cl.Broker(int(resp.Brokers[0].NodeID))
	if _, err := b0.Request(ctx, meta); err != nil {
		return err
	}
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.CoordinatorKey, fc.CoordinatorKeys = "g", []string{"g"}
	if _, err := b0.Request(ctx, fc); err != nil {
		return err
	}
	if _, err := b0.Request(ctx, kmsg.NewPtrDescribeClusterRequest()); err != nil {
		return err
	}
	if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("one")}, &kgo.Record{Value: []byte("two")}).FirstErr(); err != nil {
		return err
	}
	tm := kmsg.NewPtrMetadataRequest()
	tm.Topics = []kmsg.MetadataRequestTopic{{Topic: kmsg.StringPtr("orders")}}
	mr, err := tm.RequestWith(ctx, cl)
	if err != nil {
		return err
	}
	if len(mr.Topics) != 1 || len(mr.Topics[0].Partitions) == 0 {
		return nil
	}
	for _, b := range mr.Brokers {
		if b.NodeID != mr.Topics[0].Partitions[0].Leader {
			return notLeader(ctx, rec, net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))))
		}
	}
	return nil
}

// notLeader sends a Produce v12 of an empty batch to partition 0 of
// orders at addr (through the recorder), and reads its response.
func notLeader(ctx context.Context, rec *Recorder, addr string) error {
	f, err := FrameFromJSON("4.0", "Produce", 12, codec.Request, 99, `{"Acks":1,"TimeoutMs":5000,"TopicData":[{"Name":"orders",`+
		`"PartitionData":[{"Index":0,"Records":[{"baseOffset":0,"partitionLeaderEpoch":0,"magic":2,"compression":"none","timestampType":"CreateTime",`+
		`"transactional":false,"control":false,"baseTimestamp":0,"producerId":-1,"producerEpoch":-1,"baseSequence":-1,"records":[]}]}]}]}`)
	if err != nil {
		return err
	}
	c, err := rec.Dial(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write(f); err != nil {
		return err
	}
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		return errors.New("no answer to the Produce v12: " + err.Error())
	}
	_, err = io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(size[:])))
	return err
}
