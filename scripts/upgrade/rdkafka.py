"""librdkafka (confluent-kafka) workload for scripts/upgrade-real.sh.

usage: rdkafka.py BOOTSTRAP TOPIC N [FALLBACK]
FALLBACK ("0.10.0") sets api.version.request=false and
broker.version.fallback, as applications set them for old brokers
(librdkafka 2.0.2 still asked the broker with ApiVersions v3).
Produces N records to TOPIC (created by the broker on first use), then
reads them back in a consumer group and commits.
"""
import sys

import confluent_kafka
from confluent_kafka import Consumer, Producer

boot, topic, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
conf = {"bootstrap.servers": boot}
if len(sys.argv) > 4:
    conf.update({"api.version.request": False, "broker.version.fallback": sys.argv[4]})
print("confluent-kafka", confluent_kafka.version(), "librdkafka", confluent_kafka.libversion(), conf)
p = Producer(dict(conf, **{"client.id": "rdk-producer"}))
for i in range(n):
    p.produce(topic, key=b"key-%d" % i, value=b"value-%d" % i)
if p.flush(30) != 0:
    sys.exit("rdkafka: records left unsent")
c = Consumer(dict(conf, **{"client.id": "rdk-consumer", "group.id": "rdk-group",
                           "auto.offset.reset": "earliest", "enable.auto.commit": False}))
c.subscribe([topic])
got, tries = 0, 0
while got < n and tries < 60:
    m = c.poll(0.5)
    tries += 1
    if m is not None and m.error() is None:
        got += 1
if got:
    c.commit(asynchronous=False)
c.close()
if got < n:
    sys.exit("rdkafka: read %d of %d records" % (got, n))
print("rdkafka: produced and consumed", n)
