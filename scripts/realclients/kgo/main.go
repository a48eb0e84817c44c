// Command kgo is the franz-go workload of scripts/realclients.sh: it creates
// a topic, produces N records (key-i, "value-i from franz-go", headers src
// and i) with lz4 over SASL_PLAINTEXT SCRAM-SHA-512, and reads them back in
// a consumer group over PLAINTEXT.
//
//	go run ./scripts/realclients/kgo BOOTSTRAP SASL_BOOTSTRAP TOPIC N GROUP USER PASSWORD
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

func main() {
	if len(os.Args) != 8 {
		fmt.Fprintln(os.Stderr, "usage: kgo BOOTSTRAP SASL_BOOTSTRAP TOPIC N GROUP USER PASSWORD")
		os.Exit(2)
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "franz-go:", err)
		os.Exit(1)
	}
}

func run(a []string) error {
	boot, saslBoot, topic, group, user, password := strings.Split(a[0], ","), strings.Split(a[1], ","), a[2], a[4], a[5], a[6]
	n, err := strconv.Atoi(a[3])
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	admin, err := kgo.NewClient(kgo.SeedBrokers(boot...))
	if err != nil {
		return err
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = topic, 2, 1
	req.Topics = append(req.Topics, t)
	req.TimeoutMillis = 30000
	resp, err := req.RequestWith(ctx, admin)
	if err != nil {
		return err
	}
	for _, t := range resp.Topics {
		if t.ErrorCode != 0 {
			return fmt.Errorf("create %s: error %d", t.Topic, t.ErrorCode)
		}
	}
	admin.Close()

	prod, err := kgo.NewClient(kgo.SeedBrokers(saslBoot...),
		kgo.SASL(scram.Auth{User: user, Pass: password}.AsSha512Mechanism()),
		kgo.ProducerBatchCompression(kgo.Lz4Compression()),
		kgo.DefaultProduceTopic(topic))
	if err != nil {
		return err
	}
	var rs []*kgo.Record
	for i := range n {
		rs = append(rs, &kgo.Record{
			Key:   []byte("key-" + strconv.Itoa(i)),
			Value: []byte("value-" + strconv.Itoa(i) + " from franz-go"),
			Headers: []kgo.RecordHeader{
				{Key: "src", Value: []byte("franz-go")},
				{Key: "i", Value: []byte(strconv.Itoa(i))},
			},
		})
	}
	if err := prod.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		return err
	}
	prod.Close()

	cons, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit())
	if err != nil {
		return err
	}
	got := 0
	for got < n {
		fs := cons.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("read %d of %d records: %v", got, n, err)
		}
		got += fs.NumRecords()
	}
	if err := cons.CommitUncommittedOffsets(ctx); err != nil {
		return err
	}
	cons.Close()
	fmt.Println("franz-go: produced and consumed", n)
	return nil
}
