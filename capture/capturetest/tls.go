package capturetest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"kwire/internal/xfmt"
)

var (
	certOnce sync.Once
	cert     tls.Certificate
	certErr  error
)

// Cert is a self-signed ECDSA certificate for "kwire" (made once), for
// the TLS servers of tests.
func Cert() (tls.Certificate, error) {
	certOnce.Do(func() {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			certErr = err
			return
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kwire"}, DNSNames: []string{"kwire"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			certErr = err
			return
		}
		cert = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	})
	return cert, certErr
}

// TLSDialer is a kgo dialer of TLS connections that records each twice:
// the bytes on the wire in Wire, the plaintext in Plain, with the same
// connection numbers.
type TLSDialer struct {
	Config      *tls.Config
	Wire, Plain *Recorder
	mu          sync.Mutex
}

// Dial is a kgo.Dialer.
func (d *TLSDialer) Dial(ctx context.Context, network, host string) (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	raw, err := d.Wire.Dial(ctx, network, host)
	if err != nil {
		return nil, err
	}
	c := tls.Client(raw, d.Config)
	if err := c.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return d.Plain.Wrap(c), nil
}

// TLSTraffic runs kgo producers and consumers (one after the other, each
// with its own connections, sharing ccfg's session cache, so that those
// after the first may resume) against kfake behind crypto/tls's server,
// and returns the recorders of the bytes on the wire and of the
// plaintext, and the key log kgo's connections wrote.
func TLSTraffic(ccfg *tls.Config, clients int) (wire, plain *Recorder, keylog []byte, err error) {
	return TLSTrafficN(ccfg, clients, 50)
}

// TLSTrafficN is TLSTraffic with n records produced by each client.
func TLSTrafficN(ccfg *tls.Config, clients, n int) (wire, plain *Recorder, keylog []byte, err error) {
	cert, err := Cert()
	if err != nil {
		return nil, nil, nil, err
	}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "tls-topic"),
		kfake.TLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	if err != nil {
		return nil, nil, nil, err
	}
	defer cluster.Close()
	var kl bytes.Buffer
	ccfg = ccfg.Clone()
	ccfg.ServerName, ccfg.InsecureSkipVerify, ccfg.KeyLogWriter = "kwire", true, &kl
	d := &TLSDialer{Config: ccfg, Wire: &Recorder{}, Plain: &Recorder{}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range clients {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(d.Dial),
			kgo.ConsumeTopics("tls-topic"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		if err != nil {
			return nil, nil, nil, err
		}
		var recs []*kgo.Record
		for j := range n {
			recs = append(recs, &kgo.Record{Topic: "tls-topic", Key: []byte(xfmt.Sprint("key-", i, "-", j)), Value: []byte(strings.Repeat(xfmt.Sprint("value ", j, " "), 40))})
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			cl.Close()
			return nil, nil, nil, err
		}
		for got := 0; got < n*(i+1); {
			fs := cl.PollFetches(ctx)
			if err := fs.Err0(); err != nil {
				cl.Close()
				return nil, nil, nil, err
			}
			got += fs.NumRecords()
		}
		cl.Close()
	}
	return d.Wire, d.Plain, kl.Bytes(), nil
}
