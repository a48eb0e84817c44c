package app

import (
	"strings"
	"testing"
)

// produceOffsets is a Produce v9 request of one offset commit to
// __consumer_offsets (the README's example); produceOther is the same
// batch sent to a topic named "orders-commits".
const produceOffsets = "0000009d000000090000000000000000ffff000003e802135f5f636f6e73756d65725f6f66667365747302000000006f000000000000000000000062ffffffff02d12be2f40000000000000000018bcfe568000000018bcfe56800ffffffffffffffffffffffffffff00000001600000002400010002673100066f726465727300000003300003000000000000002a0000000500000000018bcfe5680000000000"

// The records picker: auto reads the records of __consumer_offsets as
// its; plain as bytes; a format chosen reads another topic's records as
// that topic's; the link keeps the choice.
func TestTopicFormatPicker(t *testing.T) {
	s := newState(t)
	if err := s.Paste(produceOffsets); err != nil {
		t.Fatal(err)
	}
	if s.TopicFormat() != "auto" || !strings.Contains(s.TreeText(), "OffsetCommitValue") || !strings.Contains(s.JSON(), `"OffsetCommitKey"`) {
		t.Fatalf("auto: %s\n%s", s.TopicFormat(), s.TreeText())
	}
	if err := s.SetTopicFormat("plain"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.TreeText(), "OffsetCommitValue") || strings.Contains(s.JSON(), `"OffsetCommitKey"`) || !strings.Contains(s.Query(), "&records=plain") {
		t.Errorf("plain: %s\n%s", s.Query(), s.TreeText())
	}
	// The same bytes with the topic renamed: plain records under auto, an
	// offset commit when chosen.
	renamed := strings.Replace(produceOffsets, "135f5f636f6e73756d65725f6f666673657473", "136f72646572732d636f6d6d6974732d2d2d2d", 1)
	if err := s.SetTopicFormat("auto"); err != nil {
		t.Fatal(err)
	}
	if err := s.Paste(renamed); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.TreeText(), "OffsetCommitValue") {
		t.Errorf("auto read a plain topic's records as offsets:\n%s", s.TreeText())
	}
	if err := s.SetTopicFormat("__consumer_offsets"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.TreeText(), "OffsetCommitValue") || !strings.Contains(s.JSON(), `"OffsetCommitValue"`) || s.TopicFormat() != "consumer-offsets" {
		t.Errorf("chosen: %s\n%s", s.TopicFormat(), s.TreeText())
	}
	// The link reproduces the choice.
	q := s.Query()
	o := newState(t)
	if err := o.Apply(q); err != nil {
		t.Fatal(err)
	}
	if o.TopicFormat() != "consumer-offsets" || !strings.Contains(o.TreeText(), "OffsetCommitValue") {
		t.Errorf("link %s: %s", q, o.TopicFormat())
	}
	if err := o.Apply(strings.Replace(q, "records=consumer-offsets", "records=nope", 1)); err == nil || !strings.Contains(err.Error(), "records") {
		t.Errorf("a bad records value: %v", err)
	}
	if err := s.SetTopicFormat("nope"); err == nil {
		t.Error("SetTopicFormat(nope) took it")
	}
}
