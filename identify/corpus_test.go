package identify

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"kwire/codec/wire/wiretest"
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
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

var writeCorpus = flag.Bool("corpus", false, "record testdata/corpus.txt and testdata/heldout.txt from kgo clients against kfake")

// The labelled corpora: one frame a line, "request" or "response", the API
// key and version, the frame in hex, and after a response how many times
// the recording saw it (a heartbeat's many times, each at another
// correlation id: the line holds the first); a request and its response
// are on the same connection, the request first. corpusFile is what the ranking
// is studied on; heldoutFile is recorded the same way with other names,
// releases, brokers, compression and SASL mechanism, and is only measured, never
// studied, so that it says whether the figures hold on traffic the
// ranking was not shaped by.
const (
	corpusFile  = "testdata/corpus.txt"
	heldoutFile = "testdata/heldout.txt"
)

// perVersion bounds the distinct responses of one API version that a
// corpus keeps.
const perVersion = 8

// scenario is one recording: the releases whose versions the clients may
// use, the cluster and the names the clients use.
type scenario struct {
	file     string
	releases []*kversion.Versions
	brokers  int
	parts    int32
	topics   [3]string // two seeded topics and one the admin calls create
	group    string
	txnID    string
	clientID string
	codecs   []kgo.CompressionCodec
	sasl     string // the SASL mechanism of the cluster and clients, if any
}

var scenarios = []scenario{
	{
		file:     corpusFile,
		releases: []*kversion.Versions{kversion.V2_4_0(), kversion.V2_8_0(), kversion.V3_5_0(), kversion.V4_0_0(), kversion.Stable()},
		brokers:  1, parts: 2,
		topics: [3]string{"a", "b", "c"}, group: "corpus-group", txnID: "corpus-txn", clientID: "kwire-corpus",
		codecs: []kgo.CompressionCodec{kgo.NoCompression(), kgo.GzipCompression()},
		sasl:   "SCRAM-SHA-256",
	},
	{
		file:     heldoutFile,
		releases: []*kversion.Versions{kversion.V2_1_0(), kversion.V2_6_0(), kversion.V3_2_0(), kversion.V3_7_0(), kversion.V4_1_0(), kversion.V4_2_0()},
		brokers:  3, parts: 5,
		topics: [3]string{"orders", "payments.v2", "audit-log"}, group: "billing", txnID: "billing-tx-7", clientID: "svc-billing",
		codecs: []kgo.CompressionCodec{kgo.SnappyCompression(), kgo.Lz4Compression(), kgo.ZstdCompression()},
		sasl:   "PLAIN",
	},
}

// TestRecordCorpus records the corpora with -corpus: producers (plain,
// idempotent, transactional), consume-transform-produce transactions,
// consumer groups (classic, and KIP-848 and share groups where the
// release has them), a direct consumer, admin requests of many APIs and
// client requests that draw errors, with the versions of several Kafka
// releases, each pair labelled by its request's header.
func TestRecordCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("run with -corpus to record " + corpusFile + " and " + heldoutFile)
	}
	for _, sc := range scenarios {
		var lines []string
		count := map[string]int{} // how often each response was seen
		last := map[string]int{}  // its line
		distinct := map[[2]uint16]int{}
		for _, v := range sc.releases {
			capt := record(t, sc, v)
			client, broker := capt.Streams()
			for i := range client {
				reqs, resps := wiretest.Frames(client[i]), wiretest.Frames(broker[i])
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
					count[id]++
					if i, ok := last[id]; ok {
						lines[i] = lines[i][:strings.LastIndexByte(lines[i], ' ')+1] + strconv.Itoa(count[id])
						continue
					}
					// At most perVersion distinct responses of an API
					// version: SCRAM's nonces and producer ids make every
					// SaslAuthenticate and InitProducerId response new.
					if count[id] > 1 || distinct[[2]uint16{key, ver}] >= perVersion {
						continue
					}
					distinct[[2]uint16{key, ver}]++
					last[id] = len(lines) + 1
					lines = append(lines, fmt.Sprintf("request %d %d %x", key, ver, req), fmt.Sprintf("response %d %d %x 1", key, ver, resp))
				}
			}
		}
		if err := os.WriteFile(sc.file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d pairs in %s", len(lines)/2, sc.file)
	}
}

// record runs the clients against a fresh kfake cluster with versions at
// most v.
func record(t *testing.T, sc scenario, v *kversion.Versions) *wiretest.Recorder {
	copts := []kfake.Opt{kfake.NumBrokers(sc.brokers), kfake.SeedTopics(sc.parts, sc.topics[0], sc.topics[1])}
	if sc.sasl != "" {
		copts = append(copts, kfake.EnableSASL(), kfake.Superuser(sc.sasl, "svc", "secret"))
	}
	cluster, err := kfake.NewCluster(copts...)
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	capt := &wiretest.Recorder{}
	client := func(opts ...kgo.Opt) *kgo.Client {
		cl, err := kgo.NewClient(kgoOpts(cluster, capt, sc, v, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	maxOf := func(key int16) int16 { m, _ := v.LookupMaxKeyVersion(key); return m }
	a, b := sc.topics[0], sc.topics[1]
	rec := func(topic string, n int) []*kgo.Record {
		var rs []*kgo.Record
		for i := range n {
			rs = append(rs, &kgo.Record{Topic: topic, Key: []byte("k" + strconv.Itoa(i)), Value: []byte("value " + strconv.Itoa(i))})
		}
		return rs
	}
	// Producers.
	popts := []kgo.Opt{kgo.DisableIdempotentWrite()}
	for _, c := range sc.codecs {
		popts = append(popts, kgo.ProducerBatchCompression(c))
	}
	for _, opt := range popts {
		cl := client(opt)
		if err := cl.ProduceSync(ctx, append(rec(a, 5), rec(b, 3)...)...).FirstErr(); err != nil {
			t.Logf("produce: %v", err)
		}
		cl.Close()
	}
	txn := client(kgo.TransactionalID(sc.txnID))
	for _, end := range []kgo.TransactionEndTry{kgo.TryCommit, kgo.TryAbort} {
		if err := txn.BeginTransaction(); err == nil {
			txn.ProduceSync(ctx, rec(a, 2)...)
			if err := txn.EndTransaction(ctx, end); err != nil {
				t.Logf("end txn: %v", err)
			}
		}
	}
	txn.Close()
	// Consume-transform-produce: AddOffsetsToTxn and TxnOffsetCommit.
	if sess, err := kgo.NewGroupTransactSession(kgoOpts(cluster, capt, sc, v,
		kgo.TransactionalID(sc.txnID+"-eos"), kgo.ConsumerGroup(sc.group+"-eos"), kgo.ConsumeTopics(a),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))...); err == nil {
		for range 2 {
			pctx, pcancel := context.WithTimeout(ctx, 3*time.Second)
			fs := sess.PollFetches(pctx)
			pcancel()
			if err := sess.Begin(); err != nil {
				t.Logf("eos begin: %v", err)
				break
			}
			fs.EachRecord(func(r *kgo.Record) { sess.Produce(ctx, &kgo.Record{Topic: b, Value: r.Value}, nil) })
			if _, err := sess.End(ctx, kgo.TryCommit); err != nil {
				t.Logf("eos end: %v", err)
			}
		}
		sess.Close()
	} else {
		t.Logf("eos session: %v", err)
	}
	// A consumer group that consumes, commits and leaves.
	grp := client(kgo.ConsumerGroup(sc.group), kgo.ConsumeTopics(a, b), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
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
	// KIP-848 and share groups, where the release has them.
	if maxOf(68) >= 0 {
		g := client(kgo.ConsumerGroup(sc.group+"-848"), kgo.ConsumeTopics(a), kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer()),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		pctx, pcancel := context.WithTimeout(ctx, 3*time.Second)
		g.PollRecords(pctx, 100)
		pcancel()
		g.CommitUncommittedOffsets(ctx)
		g.Close()
	}
	if maxOf(76) >= 0 {
		g := client(kgo.ShareGroup(sc.group+"-share"), kgo.ConsumeTopics(b))
		pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
		g.PollRecords(pctx, 100)
		pcancel()
		g.Close()
	}
	// A direct consumer.
	cons := client(kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{a: {0: kgo.NewOffset().AtStart(), 1: kgo.NewOffset().AtEnd()}}))
	pctx, pcancel := context.WithTimeout(ctx, 500*time.Millisecond)
	cons.PollFetches(pctx)
	pcancel()
	cons.Close()
	// Admin requests, one of each, with and without errors, and client
	// requests that the broker refuses.
	adm := client()
	defer adm.Close()
	for _, req := range append(adminRequests(sc), refusedRequests(sc)...) {
		rctx, rcancel := context.WithTimeout(ctx, 2*time.Second)
		if _, err := adm.Request(rctx, req); err != nil {
			t.Logf("%s: %v", kmsg.NameForKey(req.Key()), err)
		}
		rcancel()
	}
	return capt
}

// kgoOpts are the options of every client of a recording.
func kgoOpts(cluster *kfake.Cluster, capt *wiretest.Recorder, sc scenario, v *kversion.Versions, opts ...kgo.Opt) []kgo.Opt {
	base := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(capt.Dial), kgo.MaxVersions(v), kgo.ClientID(sc.clientID)}
	switch sc.sasl {
	case "PLAIN":
		base = append(base, kgo.SASL(plain.Auth{User: "svc", Pass: "secret"}.AsMechanism()))
	case "SCRAM-SHA-256":
		base = append(base, kgo.SASL(scram.Auth{User: "svc", Pass: "secret"}.AsSha256Mechanism()))
	}
	return append(base, opts...)
}

// refusedRequests are client requests that a broker answers with an
// error: a member, generation, producer or topic it does not know.
func refusedRequests(sc scenario) []kmsg.Request {
	var out []kmsg.Request
	hb := kmsg.NewPtrHeartbeatRequest()
	hb.Group, hb.Generation, hb.MemberID = sc.group, 7, "ghost-member"
	out = append(out, hb)
	oc := kmsg.NewPtrOffsetCommitRequest()
	oc.Group, oc.Generation, oc.MemberID = sc.group, 9, "ghost-member"
	oct := kmsg.NewOffsetCommitRequestTopic()
	oct.Topic = sc.topics[0]
	ocp := kmsg.NewOffsetCommitRequestTopicPartition()
	ocp.Partition, ocp.Offset = 0, 3
	oct.Partitions = append(oct.Partitions, ocp)
	oc.Topics = append(oc.Topics, oct)
	out = append(out, oc)
	sg := kmsg.NewPtrSyncGroupRequest()
	sg.Group, sg.Generation, sg.MemberID = sc.group, 3, "ghost-member"
	out = append(out, sg)
	lg := kmsg.NewPtrLeaveGroupRequest()
	lg.Group, lg.MemberID = sc.group, "ghost-member"
	lgm := kmsg.NewLeaveGroupRequestMember()
	lgm.MemberID = "ghost-member"
	lg.Members = append(lg.Members, lgm)
	out = append(out, lg)
	et := kmsg.NewPtrEndTxnRequest()
	et.TransactionalID, et.ProducerID, et.ProducerEpoch, et.Commit = sc.txnID, 4242, 0, true
	out = append(out, et)
	ao := kmsg.NewPtrAddOffsetsToTxnRequest()
	ao.TransactionalID, ao.ProducerID, ao.Group = sc.txnID, 4242, sc.group
	out = append(out, ao)
	ap := kmsg.NewPtrAddPartitionsToTxnRequest()
	ap.TransactionalID, ap.ProducerID = sc.txnID, 4242
	apt := kmsg.NewAddPartitionsToTxnRequestTopic()
	apt.Topic, apt.Partitions = sc.topics[1], []int32{0}
	ap.Topics = append(ap.Topics, apt)
	out = append(out, ap)
	ip := kmsg.NewPtrInitProducerIDRequest()
	ip.ProducerID, ip.ProducerEpoch = -1, -1
	out = append(out, ip)
	lo := kmsg.NewPtrListOffsetsRequest()
	lot := kmsg.NewListOffsetsRequestTopic()
	lot.Topic = "no-such-topic"
	lop := kmsg.NewListOffsetsRequestTopicPartition()
	lop.Timestamp = -1
	lot.Partitions = append(lot.Partitions, lop)
	lo.Topics = append(lo.Topics, lot)
	out = append(out, lo)
	return out
}

func adminRequests(sc scenario) []kmsg.Request {
	a, b, c := sc.topics[0], sc.topics[1], sc.topics[2]
	str := func(s string) *string { return &s }
	var out []kmsg.Request

	ct := kmsg.NewPtrCreateTopicsRequest()
	for _, name := range []string{c, a} { // a exists
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
	for _, name := range []string{a, c, "missing"} {
		mt := kmsg.NewMetadataRequestTopic()
		mt.Topic = str(name)
		md.Topics = append(md.Topics, mt)
	}
	out = append(out, md)

	dc := kmsg.NewPtrDescribeConfigsRequest()
	for _, r := range []struct {
		typ  kmsg.ConfigResourceType
		name string
	}{{kmsg.ConfigResourceTypeTopic, a}, {kmsg.ConfigResourceTypeBroker, "0"}, {kmsg.ConfigResourceTypeTopic, "missing"}} {
		rr := kmsg.NewDescribeConfigsRequestResource()
		rr.ResourceType, rr.ResourceName = r.typ, r.name
		dc.Resources = append(dc.Resources, rr)
	}
	dc.IncludeSynonyms, dc.IncludeDocumentation = true, true
	out = append(out, dc)

	ac := kmsg.NewPtrAlterConfigsRequest()
	acr := kmsg.NewAlterConfigsRequestResource()
	acr.ResourceType, acr.ResourceName = kmsg.ConfigResourceTypeTopic, c
	acc := kmsg.NewAlterConfigsRequestResourceConfig()
	acc.Name, acc.Value = "retention.ms", str("3600000")
	acr.Configs = append(acr.Configs, acc)
	ac.Resources = append(ac.Resources, acr)
	out = append(out, ac)

	iac := kmsg.NewPtrIncrementalAlterConfigsRequest()
	iacr := kmsg.NewIncrementalAlterConfigsRequestResource()
	iacr.ResourceType, iacr.ResourceName = kmsg.ConfigResourceTypeTopic, c
	iacc := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	iacc.Name, iacc.Value = "cleanup.policy", str("compact")
	iacr.Configs = append(iacr.Configs, iacc)
	iac.Resources = append(iac.Resources, iacr)
	out = append(out, iac)

	cp := kmsg.NewPtrCreatePartitionsRequest()
	cpt := kmsg.NewCreatePartitionsRequestTopic()
	cpt.Topic, cpt.Count = c, 5
	cp.Topics = append(cp.Topics, cpt)
	cp.TimeoutMillis = 5000
	out = append(out, cp)

	lo := kmsg.NewPtrListOffsetsRequest()
	lot := kmsg.NewListOffsetsRequestTopic()
	lot.Topic = a
	for p, ts := range []int64{-1, -2} {
		lp := kmsg.NewListOffsetsRequestTopicPartition()
		lp.Partition, lp.Timestamp = int32(p), ts
		lot.Partitions = append(lot.Partitions, lp)
	}
	lo.Topics = append(lo.Topics, lot)
	out = append(out, lo)

	oe := kmsg.NewPtrOffsetForLeaderEpochRequest()
	oet := kmsg.NewOffsetForLeaderEpochRequestTopic()
	oet.Topic = a
	oep := kmsg.NewOffsetForLeaderEpochRequestTopicPartition()
	oep.Partition, oep.LeaderEpoch, oep.CurrentLeaderEpoch = 0, 0, -1
	oet.Partitions = append(oet.Partitions, oep)
	oe.ReplicaID = -1
	oe.Topics = append(oe.Topics, oet)
	out = append(out, oe)

	dr := kmsg.NewPtrDeleteRecordsRequest()
	drt := kmsg.NewDeleteRecordsRequestTopic()
	drt.Topic = b
	drp := kmsg.NewDeleteRecordsRequestTopicPartition()
	drp.Partition, drp.Offset = 0, 1
	drt.Partitions = append(drt.Partitions, drp)
	dr.Topics = append(dr.Topics, drt)
	dr.TimeoutMillis = 5000
	out = append(out, dr)

	dp := kmsg.NewPtrDescribeProducersRequest()
	dpt := kmsg.NewDescribeProducersRequestTopic()
	dpt.Topic, dpt.Partitions = a, []int32{0, 1}
	dp.Topics = append(dp.Topics, dpt)
	out = append(out, dp)

	out = append(out, kmsg.NewPtrListGroupsRequest())
	dg := kmsg.NewPtrDescribeGroupsRequest()
	dg.Groups, dg.IncludeAuthorizedOperations = []string{sc.group, "nope"}, true
	out = append(out, dg)

	od := kmsg.NewPtrOffsetDeleteRequest()
	od.Group = sc.group
	odt := kmsg.NewOffsetDeleteRequestTopic()
	odt.Topic = b
	odp := kmsg.NewOffsetDeleteRequestTopicPartition()
	odp.Partition = 1
	odt.Partitions = append(odt.Partitions, odp)
	od.Topics = append(od.Topics, odt)
	out = append(out, od)

	ofr := kmsg.NewPtrOffsetFetchRequest()
	ofr.Group = sc.group
	out = append(out, ofr)

	out = append(out, kmsg.NewPtrDescribeClusterRequest())

	ca := kmsg.NewPtrCreateACLsRequest()
	cac := kmsg.NewCreateACLsRequestCreation()
	cac.ResourceType, cac.ResourceName, cac.ResourcePatternType = kmsg.ACLResourceTypeTopic, a, kmsg.ACLResourcePatternTypeLiteral
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
	dlf.ResourceType, dlf.ResourceName, dlf.ResourcePatternType = kmsg.ACLResourceTypeTopic, str(a), kmsg.ACLResourcePatternTypeLiteral
	dlf.Operation, dlf.PermissionType = kmsg.ACLOperationAny, kmsg.ACLPermissionTypeAny
	dla.Filters = append(dla.Filters, dlf)
	out = append(out, dla)

	dld := kmsg.NewPtrDescribeLogDirsRequest()
	out = append(out, dld)

	el := kmsg.NewPtrElectLeadersRequest()
	elt := kmsg.NewElectLeadersRequestTopic()
	elt.Topic, elt.Partitions = a, []int32{0}
	el.Topics = append(el.Topics, elt)
	el.TimeoutMillis = 5000
	out = append(out, el)

	out = append(out, kmsg.NewPtrListPartitionReassignmentsRequest())
	dcq := kmsg.NewPtrDescribeClientQuotasRequest()
	out = append(out, dcq)
	out = append(out, kmsg.NewPtrDescribeUserSCRAMCredentialsRequest())
	out = append(out, kmsg.NewPtrListTransactionsRequest())
	dt := kmsg.NewPtrDescribeTransactionsRequest()
	dt.TransactionalIDs = []string{sc.txnID, "none"}
	out = append(out, dt)

	dtp := kmsg.NewPtrDescribeTopicPartitionsRequest()
	for _, name := range []string{a, b} {
		tt := kmsg.NewDescribeTopicPartitionsRequestTopic()
		tt.Topic = name
		dtp.Topics = append(dtp.Topics, tt)
	}
	dtp.ResponsePartitionLimit = 100
	out = append(out, dtp)

	dgs := kmsg.NewPtrDeleteGroupsRequest()
	dgs.Groups = []string{sc.group, "nope"}
	out = append(out, dgs)

	dtr := kmsg.NewPtrDeleteTopicsRequest()
	dtr.TopicNames = []string{c, "missing"}
	dtr.TimeoutMillis = 5000
	for _, n := range dtr.TopicNames {
		t := kmsg.NewDeleteTopicsRequestTopic()
		t.Topic = str(n)
		dtr.Topics = append(dtr.Topics, t)
	}
	out = append(out, dtr)
	out = append(out, kmsg.NewPtrGetTelemetrySubscriptionsRequest())

	acq := kmsg.NewPtrAlterClientQuotasRequest()
	acqe := kmsg.NewAlterClientQuotasRequestEntry()
	acqc := kmsg.NewAlterClientQuotasRequestEntryEntity()
	acqc.Type, acqc.Name = "client-id", str(sc.clientID)
	acqe.Entity = append(acqe.Entity, acqc)
	acqo := kmsg.NewAlterClientQuotasRequestEntryOp()
	acqo.Key, acqo.Value = "producer_byte_rate", 1048576
	acqe.Ops = append(acqe.Ops, acqo)
	acq.Entries = append(acq.Entries, acqe)
	out = append(out, acq)

	aus := kmsg.NewPtrAlterUserSCRAMCredentialsRequest()
	ausu := kmsg.NewAlterUserSCRAMCredentialsRequestUpsertion()
	ausu.Name, ausu.Mechanism, ausu.Iterations = "alice", 1, 8192
	ausu.Salt, ausu.SaltedPassword = []byte("0123456789abcdef"), make([]byte, 32)
	aus.Upsertions = append(aus.Upsertions, ausu)
	ausd := kmsg.NewAlterUserSCRAMCredentialsRequestDeletion()
	ausd.Name, ausd.Mechanism = "nobody", 2
	aus.Deletions = append(aus.Deletions, ausd)
	out = append(out, aus)

	apa := kmsg.NewPtrAlterPartitionAssignmentsRequest()
	apat := kmsg.NewAlterPartitionAssignmentsRequestTopic()
	apat.Topic = a
	apap := kmsg.NewAlterPartitionAssignmentsRequestTopicPartition()
	apap.Partition, apap.Replicas = 0, []int32{0}
	apat.Partitions = append(apat.Partitions, apap)
	apa.Topics = append(apa.Topics, apat)
	apa.TimeoutMillis = 5000
	out = append(out, apa)

	arl := kmsg.NewPtrAlterReplicaLogDirsRequest()
	arld := kmsg.NewAlterReplicaLogDirsRequestDir()
	arld.Dir = "/var/lib/kafka/data"
	arlt := kmsg.NewAlterReplicaLogDirsRequestDirTopic()
	arlt.Topic, arlt.Partitions = a, []int32{0}
	arld.Topics = append(arld.Topics, arlt)
	arl.Dirs = append(arl.Dirs, arld)
	out = append(out, arl)

	cgd := kmsg.NewPtrConsumerGroupDescribeRequest()
	cgd.Groups, cgd.IncludeAuthorizedOperations = []string{sc.group + "-848", "nope"}, true
	out = append(out, cgd)
	sgd := kmsg.NewPtrShareGroupDescribeRequest()
	sgd.GroupIDs = []string{sc.group + "-share"}
	out = append(out, sgd)
	out = append(out, kmsg.NewPtrListConfigResourcesRequest())

	uf := kmsg.NewPtrUpdateFeaturesRequest()
	ufu := kmsg.NewUpdateFeaturesRequestFeatureUpdate()
	ufu.Feature, ufu.MaxVersionLevel, ufu.UpgradeType = "group.version", 1, 1
	uf.FeatureUpdates = append(uf.FeatureUpdates, ufu)
	uf.TimeoutMillis, uf.ValidateOnly = 5000, true
	out = append(out, uf)
	return out
}

// corpusPair is one labelled response with its request.
type corpusPair struct {
	key, version int16
	req, resp    []byte
	seen         int // how many times the recording saw the response
}

// readCorpus reads a corpus file (corpusFile, heldoutFile, testdata/real/), its
// responses by API key, in the order of the file for each key.
func readCorpus(t testing.TB, file string) []corpusPair {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusPair
	var req []byte
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue // a comment: the traffic of the recording (scripts/realcorpus)
		}
		f := strings.Fields(line)
		if len(f) != 4 && (f[0] != "response" || len(f) != 5) {
			t.Fatalf("%s:%d: want 4 fields (5 for a response)", file, i+1)
		}
		seen := 1
		if len(f) == 5 {
			if n, err := strconv.Atoi(f[4]); err == nil && n > 0 {
				seen = n
			}
		}
		key, _ := strconv.Atoi(f[1])
		ver, _ := strconv.Atoi(f[2])
		raw, err := hex.DecodeString(f[3])
		if err != nil {
			t.Fatalf("%s:%d: %v", file, i+1, err)
		}
		if f[0] == "request" {
			req = raw
			continue
		}
		out = append(out, corpusPair{int16(key), int16(ver), req, raw, seen})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}
