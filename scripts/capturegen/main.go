// Command capturegen writes a capture of real Kafka traffic for the
// capture benchmark: franz-go's kgo producing to and consuming from an
// in-process kfake broker (gzip batches, a consumer group), recorded and
// written as pcap or pcapng with Ethernet, IPv4 and TCP headers.
//
//	go run ./scripts/capturegen -out FILE [-format pcap|pcapng] [-records N] [-value BYTES]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"kwire/capture/capturetest"
)

func main() {
	out := flag.String("out", "", "the capture file to write")
	format := flag.String("format", "pcap", "pcap or pcapng")
	n := flag.Int("records", 20000, "records to produce and consume")
	size := flag.Int("value", 200, "bytes of each record's value")
	flag.Parse()
	if *out == "" || (*format != "pcap" && *format != "pcapng") {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*out, *format, *n, *size); err != nil {
		fmt.Fprintln(os.Stderr, "capturegen:", err)
		os.Exit(1)
	}
}

func run(out, format string, n, size int) error {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "bench"))
	if err != nil {
		return err
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rec := &capturetest.Recorder{}
	base := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(rec.Dial)}
	pr, err := kgo.NewClient(append(base, kgo.ProducerBatchCompression(kgo.GzipCompression()), kgo.ProducerLinger(time.Millisecond))...)
	if err != nil {
		return err
	}
	value := strings.Repeat("v", size)
	for i := 0; i < n; i += 1000 {
		var recs []*kgo.Record
		for j := i; j < min(i+1000, n); j++ {
			recs = append(recs, &kgo.Record{Topic: "bench", Key: fmt.Appendf(nil, "key-%d", j), Value: fmt.Appendf(nil, "%d %s", j, value)})
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
