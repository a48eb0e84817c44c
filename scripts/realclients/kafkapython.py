"""kafka-python workload for scripts/realclients.sh.

usage: kafkapython.py BOOTSTRAP SASL_BOOTSTRAP TOPIC N GROUP USER PASSWORD
Creates TOPIC, produces N records (key-i, "value-i from kafka-python",
headers src and i) with gzip over SASL_PLAINTEXT PLAIN, then reads them
back in a consumer group over PLAINTEXT.
"""
import sys

import kafka
from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

boot, sasl_boot, topic, n, group, user, password = sys.argv[1:8]
n = int(n)
print("kafka-python", kafka.__version__)

admin = KafkaAdminClient(bootstrap_servers=boot)
admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)])
admin.describe_topics([topic])
admin.close()

p = KafkaProducer(bootstrap_servers=sasl_boot, security_protocol="SASL_PLAINTEXT",
                  sasl_mechanism="PLAIN", sasl_plain_username=user, sasl_plain_password=password,
                  compression_type="gzip", linger_ms=20)
for i in range(n):
    p.send(topic, key=f"key-{i}".encode(), value=f"value-{i} from kafka-python".encode(),
           headers=[("src", b"kafka-python"), ("i", str(i).encode())])
p.flush(30)
p.close()

c = KafkaConsumer(topic, bootstrap_servers=boot, group_id=group, auto_offset_reset="earliest",
                  enable_auto_commit=False, consumer_timeout_ms=15000)
got = 0
for _ in c:
    got += 1
    if got == n:
        break
c.commit()
c.close()
if got < n:
    sys.exit(f"kafka-python: read {got} of {n} records")
print("kafka-python: produced and consumed", n)
