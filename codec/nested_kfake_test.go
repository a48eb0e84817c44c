package codec

import (
	"bytes"
	"context"
	"encoding/binary"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"kwire/codec/wire/wiretest"
	"kwire/schemas/sets"
	"kwire/tree/treetest"
)

// TestKfakeConsumerGroup runs two kgo consumers of one group against kfake
// (the classic protocol: JoinGroup and SyncGroup) and decodes every
// JoinGroup and SyncGroup frame on the wire: each subscription and
// assignment shows decoded, its topics where kmsg reads them, without
// error nodes, and every frame goes through its JSON form and back byte
// for byte.
func TestKfakeConsumerGroup(t *testing.T) {
	set, err := sets.Load("4.1")
	if err != nil {
		t.Fatal(err)
	}
	topics := []string{"orders", "payments"}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, topics...))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	versions := kversion.V4_1_0()
	versions.SetMaxKeyVersion(68, -1) // no KIP-848 consumer group heartbeat: JoinGroup and SyncGroup
	capt := &wiretest.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var clients []*kgo.Client
	var assigned [2]atomic.Int32
	for i := range 2 {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(capt.Dial), kgo.MaxVersions(versions),
			kgo.ConsumerGroup("kwire-group"), kgo.ConsumeTopics(topics...),
			kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) { assigned[i].Add(1) }))
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, cl)
	}
	// Poll until both members have partitions.
	for assigned[0].Load() < 1 || assigned[1].Load() < 1 {
		for _, cl := range clients {
			pctx, pcancel := context.WithTimeout(ctx, 100*time.Millisecond)
			cl.PollFetches(pctx)
			pcancel()
		}
		if ctx.Err() != nil {
			t.Fatal("no assignment in 30 s")
		}
	}
	for _, cl := range clients {
		cl.Close()
	}

	sent, recv := capt.Streams()
	var subs, assigns int
	for i := range sent {
		byCorr := map[int32][2]int16{}
		check := func(b []byte, dir Direction, key, version int16) {
			api := set.APIByKey(key)
			o := DecodeOptions{Set: set, Dir: dir}
			if dir == Response {
				o.API, o.Version = api, version
			}
			f, fl, err := Decode(b, o)
			if err != nil {
				t.Fatalf("%s v%d %s: %v", api.Name, version, dir, err)
			}
			if j, _ := fl.FirstError(0); j >= 0 {
				e := fl.Node(j, nil)
				t.Errorf("%s v%d %s: error node %s: %s", api.Name, version, dir, e.Path, e.Err)
			}
			jsonRoundTrip(t, f, b)
			for i, n := range treetest.All(fl) {
				switch n.Name {
				case "ConsumerProtocolSubscription":
					subs++
					var m kmsg.ConsumerMemberMetadata
					if err := m.ReadFrom(b[n.Offset:n.End()]); err != nil {
						t.Errorf("kmsg reads no subscription at [%d, %d): %v", n.Offset, n.End(), err)
					}
					for _, topic := range m.Topics {
						if text := treetest.TextAt(fl, i); !strings.Contains(text, `"`+topic+`"`) {
							t.Errorf("subscription without %s:\n%s", topic, text)
						}
					}
				case "ConsumerProtocolAssignment":
					assigns++
					var m kmsg.ConsumerMemberAssignment
					if err := m.ReadFrom(b[n.Offset:n.End()]); err != nil {
						t.Errorf("kmsg reads no assignment at [%d, %d): %v", n.Offset, n.End(), err)
					}
					for _, tp := range m.Topics {
						if text := treetest.TextAt(fl, i); !strings.Contains(text, `"`+tp.Topic+`"`) {
							t.Errorf("assignment without %s:\n%s", tp.Topic, text)
						}
					}
				}
			}
			if j, _ := f.JSON(len(b)); bytes.Contains(j, []byte(`"Metadata": "`)) && key == 11 {
				t.Errorf("JoinGroup metadata left as hex:\n%s", j)
			}
		}
		for _, b := range wiretest.Frames(sent[i]) {
			key, version := int16(binary.BigEndian.Uint16(b[4:])), int16(binary.BigEndian.Uint16(b[6:]))
			byCorr[int32(binary.BigEndian.Uint32(b[8:]))] = [2]int16{key, version}
			if key == 11 || key == 14 {
				check(b, Request, key, version)
			}
		}
		for _, b := range wiretest.Frames(recv[i]) {
			kv, ok := byCorr[int32(binary.BigEndian.Uint32(b[4:]))]
			if ok && (kv[0] == 11 || kv[0] == 14) {
				check(b, Response, kv[0], kv[1])
			}
		}
	}
	if subs < 2 || assigns < 2 {
		t.Errorf("%d subscriptions and %d assignments decoded; want at least 2 of each", subs, assigns)
	}
	t.Logf("%d subscriptions and %d assignments decoded", subs, assigns)
}
