"""kafka-python workload for scripts/upgrade-real.sh (any version, 2.0.x too).

usage: oldpython.py BOOTSTRAP TOPIC N [API_VERSION]
API_VERSION ("0.10.1") is kafka-python's api_version, as applications set
it to skip the probe: the client then uses that release's versions.
Creates TOPIC, produces N records, reads them back in a consumer group
(which asks for the earliest offsets: ListOffsets) and commits.
"""
import sys

import kafka
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

boot, topic, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
opts = {}
if len(sys.argv) > 4:
    opts["api_version"] = tuple(int(x) for x in sys.argv[4].split("."))
print("kafka-python", kafka.__version__, opts)
admin = KafkaAdminClient(bootstrap_servers=boot, client_id="kp-admin")
admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])
admin.close()
p = KafkaProducer(bootstrap_servers=boot, client_id="kp-producer", **opts)
for i in range(n):
    p.send(topic, key=b"key-%d" % i, value=b"value-%d" % i)
p.flush(30)
p.close()
c = KafkaConsumer(topic, bootstrap_servers=boot, client_id="kp-consumer", group_id=topic + "-group",
                  auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=15000, **opts)
got = 0
for _ in c:
    got += 1
    if got == n:
        break
c.commit()
print("end offsets", c.end_offsets([TopicPartition(topic, 0)]))
c.close()
if got < n:
    sys.exit("kafka-python: read %d of %d records" % (got, n))
print("kafka-python: produced and consumed", n)
