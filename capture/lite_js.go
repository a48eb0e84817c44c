package capture

import "bufio"

// The browser app reads captures with the small reader of lite.go.

func openPcap(br *bufio.Reader) (packetSource, error) { return openLitePcap(br) }

func openPcapng(g *ngGuard) (packetSource, error) { return openLitePcapng(g) }
