package identify

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"kwire/internal/traffic"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

var writeCorpus = flag.Bool("corpus", false, "record testdata/corpus.txt from kgo clients against kfake")

// corpusFile holds the labelled corpus: one frame a line, "request" or
// "response", the API key and version, the frame in hex; a request and
// its response are on the same connection, the request first.
const corpusFile = "testdata/corpus.txt"

// TestRecordCorpus records the corpus with -corpus: producers (plain,
// idempotent, transactional), a consumer group, a direct consumer and
// admin requests of many APIs, with the versions of several Kafka
// releases, each pair labelled by its request's header.
func TestRecordCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("run with -corpus to record " + corpusFile)
	}
	var lines []string
	seen := map[string]bool{}
	for _, v := range []*kversion.Versions{kversion.V2_4_0(), kversion.V2_8_0(), kversion.V3_5_0(), kversion.V4_0_0(), kversion.Stable()} {
		capt := record(t, v)
		client, broker := capt.Streams()
		for i := range client {
			reqs, resps := traffic.Frames(client[i]), traffic.Frames(broker[i])
			byCorr := map[uint32][]byte{}
			for _, b := range reqs {
				if len(b) >= 12 {
					byCorr[binary.BigEndian.Uint32(b[8:])] = b
				}
			}
			for _, resp := range resps {
				req, ok := byCorr[binary.BigEndian.Uint32(resp[4:])]
				if !ok {
					continue
				}
				key, ver := binary.BigEndian.Uint16(req[4:]), binary.BigEndian.Uint16(req[6:])
				// One pair per distinct response body (heartbeats repeat).
				id := fmt.Sprintf("%d %d %x", key, ver, resp[8:])
				if seen[id] {
					continue
				}
				seen[id] = true
				lines = append(lines, fmt.Sprintf("request %d %d %x", key, ver, req), fmt.Sprintf("response %d %d %x", key, ver, resp))
			}
		}
	}
	if err := os.WriteFile(corpusFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pairs in %s", len(lines)/2, corpusFile)
}

// record runs the clients against a fresh kfake cluster with versions at
// most v.
func record(t *testing.T, v *kversion.Versions) *traffic.Recorder {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	capt := &traffic.Recorder{}
	client := func(opts ...kgo.Opt) *kgo.Client {
		base := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(capt.Dial), kgo.MaxVersions(v), kgo.ClientID("kwire-corpus")}
		cl, err := kgo.NewClient(append(base, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	rec := func(topic string, n int) []*kgo.Record {
		var rs []*kgo.Record
		for i := range n {
			rs = append(rs, &kgo.Record{Topic: topic, Key: []byte("k" + strconv.Itoa(i)), Value: []byte("value " + strconv.Itoa(i))})
		}
		return rs
	}
	// Producers.
	for _, opt := range []kgo.Opt{kgo.DisableIdempotentWrite(), kgo.ProducerBatchCompression(kgo.NoCompression()), kgo.ProducerBatchCompression(kgo.GzipCompression())} {
		cl := client(opt)
		if err := cl.ProduceSync(ctx, append(rec("a", 5), rec("b", 3)...)...).FirstErr(); err != nil {
			t.Logf("produce: %v", err)
		}
		cl.Close()
	}
	txn := client(kgo.TransactionalID("corpus-txn"))
	for _, end := range []kgo.TransactionEndTry{kgo.TryCommit, kgo.TryAbort} {
		if err := txn.BeginTransaction(); err == nil {
			txn.ProduceSync(ctx, rec("a", 2)...)
			if err := txn.EndTransaction(ctx, end); err != nil {
				t.Logf("end txn: %v", err)
			}
		}
	}
	txn.Close()
	// A consumer group that consumes, commits and leaves.
	grp := client(kgo.ConsumerGroup("corpus-group"), kgo.ConsumeTopics("a", "b"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.HeartbeatInterval(100*time.Millisecond), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	for got := 0; got < 10 && ctx.Err() == nil; {
		fs := grp.PollRecords(ctx, 100)
		got += fs.NumRecords()
	}
	time.Sleep(400 * time.Millisecond) // heartbeats
	if err := grp.CommitUncommittedOffsets(ctx); err != nil {
		t.Logf("commit: %v", err)
	}
	grp.Close()
	// A direct consumer.
	cons := client(kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"a": {0: kgo.NewOffset().AtStart(), 1: kgo.NewOffset().AtEnd()}}))
	pctx, pcancel := context.WithTimeout(ctx, 500*time.Millisecond)
	cons.PollFetches(pctx)
	pcancel()
	cons.Close()
	// Admin requests, one of each, with and without errors.
	adm := client()
	defer adm.Close()
	for _, req := range adminRequests() {
		if _, err := adm.Request(ctx, req); err != nil {
			t.Logf("%s: %v", kmsg.NameForKey(req.Key()), err)
		}
	}
	return capt
}

func adminRequests() []kmsg.Request {
	str := func(s string) *string { return &s }
	var out []kmsg.Request

	ct := kmsg.NewPtrCreateTopicsRequest()
	for _, name := range []string{"c", "a"} { // "a" exists
		tp := kmsg.NewCreateTopicsRequestTopic()
		tp.Topic, tp.NumPartitions, tp.ReplicationFactor = name, 3, 1
		cfg := kmsg.NewCreateTopicsRequestTopicConfig()
		cfg.Name, cfg.Value = "retention.ms", str("86400000")
		tp.Configs = append(tp.Configs, cfg)
		ct.Topics = append(ct.Topics, tp)
	}
	ct.TimeoutMillis = 5000
	out = append(out, ct)

	md := kmsg.NewPtrMetadataRequest()
	for _, name := range []string{"a", "c", "missing"} {
		mt := kmsg.NewMetadataRequestTopic()
		mt.Topic = str(name)
		md.Topics = append(md.Topics, mt)
	}
	out = append(out, md)

	dc := kmsg.NewPtrDescribeConfigsRequest()
	for _, r := range []struct {
		typ  kmsg.ConfigResourceType
		name string
	}{{kmsg.ConfigResourceTypeTopic, "a"}, {kmsg.ConfigResourceTypeBroker, "0"}, {kmsg.ConfigResourceTypeTopic, "missing"}} {
		rr := kmsg.NewDescribeConfigsRequestResource()
		rr.ResourceType, rr.ResourceName = r.typ, r.name
		dc.Resources = append(dc.Resources, rr)
	}
	dc.IncludeSynonyms, dc.IncludeDocumentation = true, true
	out = append(out, dc)

	ac := kmsg.NewPtrAlterConfigsRequest()
	acr := kmsg.NewAlterConfigsRequestResource()
	acr.ResourceType, acr.ResourceName = kmsg.ConfigResourceTypeTopic, "c"
	acc := kmsg.NewAlterConfigsRequestResourceConfig()
	acc.Name, acc.Value = "retention.ms", str("3600000")
	acr.Configs = append(acr.Configs, acc)
	ac.Resources = append(ac.Resources, acr)
	out = append(out, ac)

	iac := kmsg.NewPtrIncrementalAlterConfigsRequest()
	iacr := kmsg.NewIncrementalAlterConfigsRequestResource()
	iacr.ResourceType, iacr.ResourceName = kmsg.ConfigResourceTypeTopic, "c"
	iacc := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	iacc.Name, iacc.Value = "cleanup.policy", str("compact")
	iacr.Configs = append(iacr.Configs, iacc)
	iac.Resources = append(iac.Resources, iacr)
	out = append(out, iac)

	cp := kmsg.NewPtrCreatePartitionsRequest()
	cpt := kmsg.NewCreatePartitionsRequestTopic()
	cpt.Topic, cpt.Count = "c", 5
	cp.Topics = append(cp.Topics, cpt)
	cp.TimeoutMillis = 5000
	out = append(out, cp)

	lo := kmsg.NewPtrListOffsetsRequest()
	lot := kmsg.NewListOffsetsRequestTopic()
	lot.Topic = "a"
	for p, ts := range []int64{-1, -2} {
		lp := kmsg.NewListOffsetsRequestTopicPartition()
		lp.Partition, lp.Timestamp = int32(p), ts
		lot.Partitions = append(lot.Partitions, lp)
	}
	lo.Topics = append(lo.Topics, lot)
	out = append(out, lo)

	oe := kmsg.NewPtrOffsetForLeaderEpochRequest()
	oet := kmsg.NewOffsetForLeaderEpochRequestTopic()
	oet.Topic = "a"
	oep := kmsg.NewOffsetForLeaderEpochRequestTopicPartition()
	oep.Partition, oep.LeaderEpoch, oep.CurrentLeaderEpoch = 0, 0, -1
	oet.Partitions = append(oet.Partitions, oep)
	oe.ReplicaID = -1
	oe.Topics = append(oe.Topics, oet)
	out = append(out, oe)

	dr := kmsg.NewPtrDeleteRecordsRequest()
	drt := kmsg.NewDeleteRecordsRequestTopic()
	drt.Topic = "b"
	drp := kmsg.NewDeleteRecordsRequestTopicPartition()
	drp.Partition, drp.Offset = 0, 1
	drt.Partitions = append(drt.Partitions, drp)
	dr.Topics = append(dr.Topics, drt)
	dr.TimeoutMillis = 5000
	out = append(out, dr)

	dp := kmsg.NewPtrDescribeProducersRequest()
	dpt := kmsg.NewDescribeProducersRequestTopic()
	dpt.Topic, dpt.Partitions = "a", []int32{0, 1}
	dp.Topics = append(dp.Topics, dpt)
	out = append(out, dp)

	out = append(out, kmsg.NewPtrListGroupsRequest())
	dg := kmsg.NewPtrDescribeGroupsRequest()
	dg.Groups, dg.IncludeAuthorizedOperations = []string{"corpus-group", "nope"}, true
	out = append(out, dg)

	od := kmsg.NewPtrOffsetDeleteRequest()
	od.Group = "corpus-group"
	odt := kmsg.NewOffsetDeleteRequestTopic()
	odt.Topic = "b"
	odp := kmsg.NewOffsetDeleteRequestTopicPartition()
	odp.Partition = 1
	odt.Partitions = append(odt.Partitions, odp)
	od.Topics = append(od.Topics, odt)
	out = append(out, od)

	ofr := kmsg.NewPtrOffsetFetchRequest()
	ofr.Group = "corpus-group"
	out = append(out, ofr)

	out = append(out, kmsg.NewPtrDescribeClusterRequest())

	ca := kmsg.NewPtrCreateACLsRequest()
	cac := kmsg.NewCreateACLsRequestCreation()
	cac.ResourceType, cac.ResourceName, cac.ResourcePatternType = kmsg.ACLResourceTypeTopic, "a", kmsg.ACLResourcePatternTypeLiteral
	cac.Principal, cac.Host = "User:alice", "*"
	cac.Operation, cac.PermissionType = kmsg.ACLOperationRead, kmsg.ACLPermissionTypeAllow
	ca.Creations = append(ca.Creations, cac)
	out = append(out, ca)

	da := kmsg.NewPtrDescribeACLsRequest()
	da.ResourceType, da.ResourcePatternType = kmsg.ACLResourceTypeAny, kmsg.ACLResourcePatternTypeAny
	da.Operation, da.PermissionType = kmsg.ACLOperationAny, kmsg.ACLPermissionTypeAny
	out = append(out, da)

	dla := kmsg.NewPtrDeleteACLsRequest()
	dlf := kmsg.NewDeleteACLsRequestFilter()
	dlf.ResourceType, dlf.ResourceName, dlf.ResourcePatternType = kmsg.ACLResourceTypeTopic, str("a"), kmsg.ACLResourcePatternTypeLiteral
	dlf.Operation, dlf.PermissionType = kmsg.ACLOperationAny, kmsg.ACLPermissionTypeAny
	dla.Filters = append(dla.Filters, dlf)
	out = append(out, dla)

	dld := kmsg.NewPtrDescribeLogDirsRequest()
	out = append(out, dld)

	el := kmsg.NewPtrElectLeadersRequest()
	elt := kmsg.NewElectLeadersRequestTopic()
	elt.Topic, elt.Partitions = "a", []int32{0}
	el.Topics = append(el.Topics, elt)
	el.TimeoutMillis = 5000
	out = append(out, el)

	out = append(out, kmsg.NewPtrListPartitionReassignmentsRequest())
	dcq := kmsg.NewPtrDescribeClientQuotasRequest()
	out = append(out, dcq)
	out = append(out, kmsg.NewPtrDescribeUserSCRAMCredentialsRequest())
	out = append(out, kmsg.NewPtrListTransactionsRequest())
	dt := kmsg.NewPtrDescribeTransactionsRequest()
	dt.TransactionalIDs = []string{"corpus-txn", "none"}
	out = append(out, dt)

	dtp := kmsg.NewPtrDescribeTopicPartitionsRequest()
	for _, name := range []string{"a", "b"} {
		tt := kmsg.NewDescribeTopicPartitionsRequestTopic()
		tt.Topic = name
		dtp.Topics = append(dtp.Topics, tt)
	}
	dtp.ResponsePartitionLimit = 100
	out = append(out, dtp)

	dgs := kmsg.NewPtrDeleteGroupsRequest()
	dgs.Groups = []string{"corpus-group", "nope"}
	out = append(out, dgs)

	dtr := kmsg.NewPtrDeleteTopicsRequest()
	dtr.TopicNames = []string{"c", "missing"}
	dtr.TimeoutMillis = 5000
	for _, n := range dtr.TopicNames {
		t := kmsg.NewDeleteTopicsRequestTopic()
		t.Topic = str(n)
		dtr.Topics = append(dtr.Topics, t)
	}
	out = append(out, dtr)
	out = append(out, kmsg.NewPtrGetTelemetrySubscriptionsRequest())
	return out
}

// corpusPair is one labelled response with its request.
type corpusPair struct {
	key, version int16
	req, resp    []byte
}

// readCorpus reads testdata/corpus.txt in its order.
func readCorpus(t testing.TB) []corpusPair {
	b, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusPair
	var req []byte
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("%s:%d: want 4 fields", corpusFile, i+1)
		}
		key, _ := strconv.Atoi(f[1])
		ver, _ := strconv.Atoi(f[2])
		raw, err := hex.DecodeString(f[3])
		if err != nil {
			t.Fatalf("%s:%d: %v", corpusFile, i+1, err)
		}
		if f[0] == "request" {
			req = raw
			continue
		}
		out = append(out, corpusPair{int16(key), int16(ver), req, raw})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}
