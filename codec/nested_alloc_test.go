//go:build !js

package codec

import (
	"fmt"
	"io"
	"testing"
)

// nestedAllocCases are frames whose nested formats are decoded into the
// Flat: SASL PLAIN and OTLP metrics (rows, their strings in shared
// blocks) and Envelope's request (spans of the carried request's own
// describers), with the most allocations each decode may make, as spans
// (Decode) and with every row's text written as kwire decode prints
// it (WriteText). The bounds are what the decodes make now (23, 38 and
// 42) plus a little room: as Node trees copied into the Flat, their
// strings each allocated, they made 46, 90 and 243.
func nestedAllocCases(t *testing.T) []struct {
	name       string
	b          []byte
	flat, text float64
} {
	plain := saslFrame(t, []byte("\x00alice\x00secret"), Request)
	inner := frameFromJSON(t, "CreateTopics", 7, Request, `{"Topics":[{"Name":"t","NumPartitions":3,"ReplicationFactor":1,"Assignments":[],"Configs":[{"Name":"cleanup.policy","Value":"compact"}]}],"timeoutMs":30000,"validateOnly":false}`)
	envelope := frameFromJSON(t, "Envelope", 0, Request, fmt.Sprintf(`{"RequestData":"%x","RequestPrincipal":"0000055573657206616c6963650000","ClientHostAddress":"7f000001"}`, inner[4:]))
	return []struct {
		name       string
		b          []byte
		flat, text float64
	}{
		{"SaslAuthenticate PLAIN", plain, 26, 28},
		{"Envelope CreateTopics", envelope, 42, 44},
		{"PushTelemetry OTLP", telemetryFrame(t, 0, otlpMetrics()), 46, 47},
	}
}

// TestNestedAllocs holds the decodes of nestedAllocCases to their
// allocations.
func TestNestedAllocs(t *testing.T) {
	set := loadSet(t, "trunk")
	for _, c := range nestedAllocCases(t) {
		o := DecodeOptions{Set: set, Dir: Request}
		_, fl, err := Decode(c.b, o)
		if err != nil {
			t.Fatal(err)
		}
		if e, _ := fl.FirstError(0); e >= 0 {
			t.Fatalf("%s: error node %+v", c.name, fl.Node(e, nil))
		}
		flat := testing.AllocsPerRun(50, func() { Decode(c.b, o) })
		text := testing.AllocsPerRun(50, func() {
			_, fl, _ := Decode(c.b, o)
			fl.WriteText(io.Discard, 0, nil)
		})
		t.Logf("%s: %.0f allocations as spans, %.0f with the text written", c.name, flat, text)
		if flat > c.flat || text > c.text {
			t.Errorf("%s: %.0f allocations as spans (at most %.0f), %.0f with the text (at most %.0f)", c.name, flat, c.flat, text, c.text)
		}
	}
}
