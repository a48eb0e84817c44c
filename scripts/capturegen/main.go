// Command capturegen writes a capture of real Kafka traffic for the
// capture benchmark: franz-go's kgo producing to and consuming from an
// in-process kfake broker (gzip batches, a consumer group), recorded and
// written as pcap or pcapng with Ethernet, IPv4 and TCP headers.
//
//	go run ./scripts/capturegen -out FILE [-format pcap|pcapng] [-records N] [-value BYTES] [-gzip=false] [-kafka24]
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"kwire/capture/capturetest"
)

func main() {
	out := flag.String("out", "", "the capture file to write")
	format := flag.String("format", "pcap", "pcap or pcapng")
	n := flag.Int("records", 20000, "records to produce and consume")
	size := flag.Int("value", 200, "bytes of each record's value (random letters)")
	gz := flag.Bool("gzip", true, "compress the batches with gzip")
	old := flag.Bool("kafka24", false, "speak the versions of Kafka 2.4 (Produce v8, Fetch v11), which Wireshark 4.0's dissector reads")
	flag.Parse()
	if *out == "" || (*format != "pcap" && *format != "pcapng") {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*out, *format, *n, *size, *gz, *old); err != nil {
		fmt.Fprintln(os.Stderr, "capturegen:", err)
		os.Exit(1)
	}
}

func run(out, format string, n, size int, gz, old bool) error {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "bench"))
	if err != nil {
		return err
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rec := &capturetest.Recorder{}
	base := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(rec.Dial)}
	if old {
		base = append(base, kgo.MaxVersions(kversion.V2_4_0()))
	}
	cc := kgo.NoCompression()
	if gz {
		cc = kgo.GzipCompression()
	}
	pr, err := kgo.NewClient(append(base, kgo.ProducerBatchCompression(cc), kgo.ProducerLinger(time.Millisecond))...)
	if err != nil {
		return err
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	value := func() []byte {
		b := make([]byte, size)
		for i := range b {
			b[i] = byte('a' + rnd.IntN(26))
		}
		return b
	}
	for i := 0; i < n; i += 1000 {
		var recs []*kgo.Record
		for j := i; j < min(i+1000, n); j++ {
			recs = append(recs, &kgo.Record{Topic: "bench", Key: fmt.Appendf(nil, "key-%d", j), Value: value()})
		}
		if err := pr.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			return err
		}
	}
	pr.Close()
	cl, err := kgo.NewClient(append(base, kgo.ConsumerGroup("bench-group"), kgo.ConsumeTopics("bench"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))...)
	if err != nil {
		return err
	}
	for got := 0; got < n; {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			return err
		}
		got += fs.NumRecords()
	}
	cl.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	pkts := capturetest.Packets(rec.Chunks, capturetest.Options{})
	if format == "pcapng" {
		err = capturetest.WritePcapng(f, pkts, nil)
	} else {
		err = capturetest.WritePcap(f, pkts, 1, false, false, 262144)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
