// Command kgo is the franz-go workload of scripts/tlsclients.sh.
//
//	kgo BOOTSTRAP CA.pem TOPIC N VERSION KEYLOG
//
// Produces N records (key-i, "value-i from kgo-VERSION") to TOPIC over TLS
// VERSION (1.2 or 1.3) and reads them back, with two clients one after
// the other sharing a session cache (the second resumes), every
// connection's secrets appended to KEYLOG.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "kgo:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 6 {
		return fmt.Errorf("usage: kgo BOOTSTRAP CA.pem TOPIC N VERSION KEYLOG")
	}
	boot, caFile, topic, version, keylog := args[0], args[1], args[2], args[4], args[5]
	n, err := strconv.Atoi(args[3])
	if err != nil {
		return err
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	kl, err := os.OpenFile(keylog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer kl.Close()
	cfg := &tls.Config{RootCAs: pool, KeyLogWriter: kl, ClientSessionCache: tls.NewLRUClientSessionCache(16), InsecureSkipVerify: true}
	switch version {
	case "1.2":
		cfg.MaxVersion = tls.VersionTLS12
	case "1.3":
		cfg.MinVersion = tls.VersionTLS13
	default:
		return fmt.Errorf("version %q: 1.2 or 1.3", version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	src := "kgo-" + version
	for round := range 2 {
		cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(boot, ",")...), kgo.DialTLSConfig(cfg),
			kgo.AllowAutoTopicCreation(), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		if err != nil {
			return err
		}
		if round == 0 {
			var recs []*kgo.Record
			for i := range n {
				recs = append(recs, &kgo.Record{Topic: topic, Key: []byte(fmt.Sprint("key-", i)), Value: []byte(fmt.Sprintf("value-%d from %s", i, src))})
			}
			if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
				cl.Close()
				return err
			}
		}
		for got := 0; got < n; {
			fs := cl.PollFetches(ctx)
			if err := fs.Err0(); err != nil {
				cl.Close()
				return err
			}
			got += fs.NumRecords()
		}
		cl.Close()
	}
	fmt.Println(src, "produced and consumed", n)
	return nil
}
