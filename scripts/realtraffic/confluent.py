"""confluent-kafka (librdkafka) workload for scripts/realtraffic.sh.

Admin calls, a plain and an idempotent producer, transactions that commit
what they consumed, and a consumer group that stays a while so that
heartbeats and offset commits recur; one client over SASL SCRAM-SHA-512.
Bounded: every loop stops by count or time. Environment: DIR/env's
variables (KAFKA_PLAINTEXT, KAFKA_SASL, KAFKA_USER, KAFKA_PASSWORD), and
STAY (seconds the group consumer polls).
"""
import os
import time

from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, Producer
from confluent_kafka.admin import AdminClient, ConfigResource, NewPartitions, NewTopic

boot = os.environ["KAFKA_PLAINTEXT"]
stay = float(os.environ.get("STAY", "20"))
base = {"bootstrap.servers": boot, "client.id": "rdk-svc"}

admin = AdminClient(dict(base))
for f in admin.create_topics([NewTopic("rdk-orders", 3, 1), NewTopic("rdk-out", 2, 1), NewTopic("rdk-tmp", 1, 1)]).values():
    try:
        f.result(30)
    except Exception as e:  # a second run: the topics are there (an error response, also traffic)
        print("create:", e)
admin.list_topics(timeout=10)
for f in admin.describe_configs([ConfigResource("topic", "rdk-orders")]).values():
    f.result(30)
try:
    admin.create_partitions([NewPartitions("rdk-tmp", 2)])["rdk-tmp"].result(30)
except Exception as e:
    print("create partitions:", e)

p = Producer(dict(base, **{"linger.ms": 5}))
for i in range(300):
    p.produce("rdk-orders", key=b"k%d" % (i % 7), value=b"order %d" % i)
    if i % 50 == 0:
        p.poll(0)
p.flush(30)
ip = Producer(dict(base, **{"enable.idempotence": True, "compression.type": "lz4"}))
for i in range(200):
    ip.produce("rdk-orders", value=b"idem %d" % i)
ip.flush(30)

# Consume in a group for a while: heartbeats, commits.
c = Consumer(dict(base, **{"group.id": "rdk-group", "auto.offset.reset": "earliest",
                          "heartbeat.interval.ms": 1000, "auto.commit.interval.ms": 1000}))
c.subscribe(["rdk-orders"])
end = time.time() + stay
n = 0
while time.time() < end:
    m = c.poll(0.5)
    if m is not None and not m.error():
        n += 1
c.close()

# Transactions: consume, produce, commit the consumed offsets.
tc = Consumer(dict(base, **{"group.id": "rdk-txn-group", "auto.offset.reset": "earliest", "enable.auto.commit": False}))
tc.subscribe(["rdk-orders"])
tp = Producer(dict(base, **{"transactional.id": "rdk-txn-1"}))
tp.init_transactions(30)
for t in range(8):
    msgs = tc.consume(20, 3)
    tp.begin_transaction()
    for m in msgs:
        if not m.error():
            tp.produce("rdk-out", value=m.value())
    tp.send_offsets_to_transaction(tc.position(tc.assignment()), tc.consumer_group_metadata(), 30)
    if t % 4 == 3:
        tp.abort_transaction(30)
    else:
        tp.commit_transaction(30)
tc.close()

# Over SASL SCRAM-SHA-512.
sp = Producer({"bootstrap.servers": os.environ["KAFKA_SASL"], "client.id": "rdk-sasl", "security.protocol": "SASL_PLAINTEXT",
               "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": os.environ["KAFKA_USER"], "sasl.password": os.environ["KAFKA_PASSWORD"]})
for i in range(20):
    sp.produce("rdk-orders", value=b"sasl %d" % i)
sp.flush(30)

admin.list_consumer_groups(request_timeout=10).result()
admin.describe_consumer_groups(["rdk-group"])["rdk-group"].result()
admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions("rdk-group")])["rdk-group"].result()
for f in admin.delete_topics(["rdk-tmp"], operation_timeout=30).values():
    f.result(30)
print("confluent-kafka: consumed", n)
