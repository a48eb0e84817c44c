//go:build js

package tlsdec

// impl is in the browser the hand-written tlscrypto (crypto.go).
var impl cryptoImpl = handCrypto{}
