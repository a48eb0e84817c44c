package main

import (
	"path/filepath"
	"strings"
	"testing"

	"kwire/capture/capturetest"
	"kwire/codec"
)

// The records of a topic kwire does not know as internal stay bytes,
// --topic-format reads them as the topic given, --topic-format plain
// keeps __consumer_offsets' as bytes, and a bad name is a usage error.
func TestDecodeTopicFormatFlag(t *testing.T) {
	const key, value = "00010002673100066f726465727300000003", "0003000000000000002a0000000500000000018bcfe56800"
	produce := func(topic string) string {
		t.Helper()
		body := `{"TransactionalId": null, "Acks": -1, "TimeoutMs": 1000, "TopicData": [{"Name": "` + topic + `", "PartitionData": [{"Index": 0,
			"Records": [{"records": [{"keyHex": "` + key + `", "valueHex": "` + value + `"}]}]}]}]}`
		frame, errs, code := kwire(t, body, "encode", "--api", "Produce", "--version", "9", "--request", "--json", "-")
		if code != 0 {
			t.Fatalf("encode: %d %s", code, errs)
		}
		return strings.TrimSpace(frame)
	}
	const decoded = `topic string = "orders"`
	for _, c := range []struct {
		topic string
		args  []string
		want  bool
	}{
		{"__consumer_offsets", nil, true},
		{"orders", nil, false},
		{"orders", []string{"--topic-format", "consumer-offsets"}, true},
		{"orders", []string{"--topic-format", "__consumer_offsets"}, true},
		{"__consumer_offsets", []string{"--topic-format", "plain"}, false},
	} {
		out, errs, code := kwire(t, produce(c.topic), append([]string{"decode"}, c.args...)...)
		if code != 0 || strings.Contains(out, decoded) != c.want {
			t.Errorf("%s %v: %d %s, decoded %v:\n%s", c.topic, c.args, code, errs, !c.want, out)
		}
	}
	_, errs, code := kwire(t, produce("orders"), "decode", "--topic-format", "offsets")
	if code != 2 || !strings.Contains(errs, "consumer-offsets") {
		t.Errorf("a bad --topic-format: %d %s", code, errs)
	}
	j, errs, code := kwire(t, produce("__consumer_offsets"), "decode", "--format", "json")
	if code != 0 || !strings.Contains(j, `"OffsetCommitKey": {`) {
		t.Fatalf("JSON: %d %s\n%s", code, errs, j)
	}
	back, errs, code := kwire(t, j, "encode", "--api", "Produce", "--version", "9", "--request", "--json", "-")
	if code != 0 || strings.TrimSpace(back) != produce("__consumer_offsets") {
		t.Errorf("JSON round trip: %d %s", code, errs)
	}
}

// kwire capture takes --topic-format too: a Produce request of an
// offset commit to a topic of another name is read as __consumer_offsets'
// when asked, in --frame's tree and in the JSON bodies.
func TestCaptureTopicFormatFlag(t *testing.T) {
	const key, value = "00010002673100066f726465727300000003", "0003000000000000002a0000000500000000018bcfe56800"
	body := `{"TransactionalId": null, "Acks": -1, "TimeoutMs": 1000, "TopicData": [{"Name": "commits-copy", "PartitionData": [{"Index": 0,
		"Records": [{"records": [{"keyHex": "` + key + `", "valueHex": "` + value + `"}]}]}]}]}`
	path := filepath.Join(t.TempDir(), "copy.pcap")
	writeCapture(t, path, capturetest.Packets([]capturetest.Chunk{chunk(0, true, 0, encodeFrame(t, "Produce", 9, codec.Request, 1, body))}, capturetest.Options{}))
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--frame", "1"}, false},
		{[]string{"--frame", "1", "--topic-format", "consumer-offsets"}, true},
		{[]string{"--format", "json", "--body"}, false},
		{[]string{"--format", "json", "--body", "--topic-format", "__consumer_offsets"}, true},
	} {
		out, errs, code := kwire(t, "", append(append([]string{"capture"}, c.args...), path)...)
		if code != 0 || strings.Contains(out, "OffsetCommitKey") != c.want {
			t.Errorf("%v: exit %d %s, OffsetCommitKey %v:\n%.2000s", c.args, code, errs, !c.want, out)
		}
	}
	if _, errs, code := kwire(t, "", "capture", "--topic-format", "nope", path); code != 2 || !strings.Contains(errs, "consumer-offsets") {
		t.Errorf("a bad --topic-format: %d %s", code, errs)
	}
}
