package capturetest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"sync"
	"time"
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
