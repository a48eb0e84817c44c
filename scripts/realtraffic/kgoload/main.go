// Command kgoload is franz-go's kgo workload of scripts/realtraffic.sh:
// admin requests, an idempotent producer, transactions that commit what
// they consumed, and a consumer group that stays a while (heartbeats,
// offset commits), against the broker of $KAFKA_PLAINTEXT, and a producer
// over SASL SCRAM-SHA-256 ($KAFKA_SASL). Bounded: it stops after -stay and
// a fixed number of records and transactions.
//
//	go run ./scripts/realtraffic/kgoload [-stay 20s]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

func main() {
	stay := flag.Duration("stay", 20*time.Second, "how long the group consumer polls")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	boot := strings.Split(os.Getenv("KAFKA_PLAINTEXT"), ",")
	if err := run(ctx, boot, *stay); err != nil {
		fmt.Fprintln(os.Stderr, "kgoload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, boot []string, stay time.Duration) error {
	admin, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ClientID("kgo-admin"))
	if err != nil {
		return err
	}
	defer admin.Close()
	ct := kmsg.NewPtrCreateTopicsRequest()
	ct.TimeoutMillis = 30000
	for _, n := range []string{"kgo-metrics", "kgo-out", "kgo-tmp"} {
		t := kmsg.NewCreateTopicsRequestTopic()
		t.Topic, t.NumPartitions, t.ReplicationFactor = n, 2, 1
		ct.Topics = append(ct.Topics, t)
	}
	if _, err := ct.RequestWith(ctx, admin); err != nil {
		return err
	}
	dc := kmsg.NewPtrDescribeConfigsRequest()
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, "kgo-metrics"
	dc.Resources = append(dc.Resources, r)
	if _, err := dc.RequestWith(ctx, admin); err != nil {
		return err
	}

	p, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ClientID("kgo-producer"), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		return err
	}
	for i := range 300 {
		p.Produce(ctx, &kgo.Record{Topic: "kgo-metrics", Key: []byte(fmt.Sprint("k", i%6)), Value: []byte(fmt.Sprint("metric ", i))}, nil)
	}
	if err := p.Flush(ctx); err != nil {
		return err
	}
	p.Close()

	c, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ClientID("kgo-consumer"), kgo.ConsumerGroup("kgo-group"),
		kgo.ConsumeTopics("kgo-metrics"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.HeartbeatInterval(time.Second), kgo.AutoCommitInterval(time.Second))
	if err != nil {
		return err
	}
	end := time.Now().Add(stay)
	n := 0
	for time.Now().Before(end) {
		pctx, pcancel := context.WithTimeout(ctx, 500*time.Millisecond)
		n += c.PollFetches(pctx).NumRecords()
		pcancel()
	}
	c.Close()

	// Transactions of a producer alone, then consume-transform-produce.
	tx, err := kgo.NewClient(kgo.SeedBrokers(boot...), kgo.ClientID("kgo-txn-producer"), kgo.TransactionalID("kgo-txn-0"))
	if err != nil {
		return err
	}
	for t := range 6 {
		if err := tx.BeginTransaction(); err != nil {
			return err
		}
		for i := range 5 {
			if err := tx.ProduceSync(ctx, &kgo.Record{Topic: "kgo-out", Value: []byte(fmt.Sprint("txn ", t, " ", i))}).FirstErr(); err != nil {
				return err
			}
		}
		if err := tx.EndTransaction(ctx, kgo.TransactionEndTry(t%3 != 2)); err != nil {
			return err
		}
	}
	tx.Close()
	sess, err := kgo.NewGroupTransactSession(kgo.SeedBrokers(boot...), kgo.ClientID("kgo-txn"), kgo.TransactionalID("kgo-txn-1"),
		kgo.ConsumerGroup("kgo-txn-group"), kgo.ConsumeTopics("kgo-metrics"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		return err
	}
	for t := range 8 {
		pctx, pcancel := context.WithTimeout(ctx, 10*time.Second) // the first waits for the group to form
		fs := sess.PollRecords(pctx, 20)
		pcancel()
		if err := sess.Begin(); err != nil {
			return err
		}
		fs.EachRecord(func(r *kgo.Record) {
			sess.Produce(ctx, &kgo.Record{Topic: "kgo-out", Value: r.Value}, nil)
		})
		if _, err := sess.End(ctx, kgo.TransactionEndTry(t%4 != 3)); err != nil {
			return err
		}
	}
	sess.Close()

	sp, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(os.Getenv("KAFKA_SASL"), ",")...), kgo.ClientID("kgo-sasl"),
		kgo.SASL(scram.Auth{User: os.Getenv("KAFKA_USER"), Pass: os.Getenv("KAFKA_PASSWORD")}.AsSha256Mechanism()))
	if err != nil {
		return err
	}
	for i := range 20 {
		if err := sp.ProduceSync(ctx, &kgo.Record{Topic: "kgo-metrics", Value: []byte(fmt.Sprint("sasl ", i))}).FirstErr(); err != nil {
			return fmt.Errorf("over SASL: %w", err)
		}
	}
	sp.Close()

	for _, req := range []kmsg.Request{kmsg.NewPtrListGroupsRequest(), describeGroups("kgo-group"), offsetFetch("kgo-group"), deleteTopics("kgo-tmp")} {
		if _, err := admin.Request(ctx, req); err != nil {
			return err
		}
	}
	fmt.Println("kgo: consumed", n)
	return nil
}

func describeGroups(g string) kmsg.Request {
	r := kmsg.NewPtrDescribeGroupsRequest()
	r.Groups = []string{g}
	return r
}

func offsetFetch(g string) kmsg.Request {
	r := kmsg.NewPtrOffsetFetchRequest()
	r.Group = g
	return r
}

func deleteTopics(t string) kmsg.Request {
	r := kmsg.NewPtrDeleteTopicsRequest()
	r.TimeoutMillis = 30000
	r.TopicNames = []string{t}
	dt := kmsg.NewDeleteTopicsRequestTopic()
	dt.Topic = kmsg.StringPtr(t)
	r.Topics = append(r.Topics, dt)
	return r
}
