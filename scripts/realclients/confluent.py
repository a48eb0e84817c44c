"""librdkafka (confluent-kafka) workload for scripts/realclients.sh.

usage: confluent.py BOOTSTRAP SASL_BOOTSTRAP TOPIC N GROUP PROTOCOL USER PASSWORD
Produces N records (key-i, "value-i from librdkafka", headers src and i)
with zstd over SASL_PLAINTEXT SCRAM-SHA-256, then reads them back in a
consumer group (group.protocol PROTOCOL) over PLAINTEXT.
"""
import sys
import time

import confluent_kafka
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

boot, sasl_boot, topic, n, group, protocol, user, password = sys.argv[1:9]
n = int(n)
print("confluent-kafka", confluent_kafka.__version__, "librdkafka", confluent_kafka.libversion()[0])

admin = AdminClient({"bootstrap.servers": boot})
for f in admin.create_topics([NewTopic(topic, 2, 1)]).values():
    f.result(30)
admin.list_topics(timeout=30)

p = Producer({
    "bootstrap.servers": sasl_boot,
    "security.protocol": "SASL_PLAINTEXT",
    "sasl.mechanism": "SCRAM-SHA-256",
    "sasl.username": user,
    "sasl.password": password,
    "compression.type": "zstd",
    "linger.ms": 20,
})
for i in range(n):
    p.produce(topic, key=f"key-{i}", value=f"value-{i} from librdkafka",
              headers=[("src", b"librdkafka"), ("i", str(i).encode())])
if p.flush(30) != 0:
    sys.exit("librdkafka: records left unsent")

conf = {
    "bootstrap.servers": boot,
    "group.id": group,
    "auto.offset.reset": "earliest",
    "enable.auto.commit": False,
}
if protocol == "consumer":
    conf["group.protocol"] = "consumer"
else:
    conf["session.timeout.ms"] = 10000
c = Consumer(conf)
c.subscribe([topic])
got = 0
deadline = time.time() + 60
while got < n and time.time() < deadline:
    m = c.poll(1.0)
    if m is None or m.error():
        continue
    got += 1
c.commit(asynchronous=False)
c.close()
if got < n:
    sys.exit(f"librdkafka: read {got} of {n} records")
print("librdkafka: produced and consumed", n)
