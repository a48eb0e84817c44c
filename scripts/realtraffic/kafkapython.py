"""kafka-python workload for scripts/realtraffic.sh.

Admin calls, a producer, a consumer group that stays a while (heartbeats,
offset commits), a transactional producer when the library has one, and a
producer over SASL PLAIN. Bounded by count and time. Environment: DIR/env's
variables, and STAY (seconds the group consumer polls).
"""
import os
import time

from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewPartitions, NewTopic

boot = os.environ["KAFKA_PLAINTEXT"]
stay = float(os.environ.get("STAY", "20"))


def tolerate(what, f):
    try:
        return f()
    except Exception as e:  # a refused call is traffic too
        print(what + ":", e)


admin = KafkaAdminClient(bootstrap_servers=boot, client_id="kp-admin")
tolerate("create", lambda: admin.create_topics([NewTopic("kp-events", 2, 1), NewTopic("kp-tmp", 1, 1)]))
tolerate("partitions", lambda: admin.create_partitions({"kp-tmp": NewPartitions(3)}))
admin.list_topics()
admin.describe_topics(["kp-events"])
tolerate("configs", lambda: admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, "kp-events")]))
admin.describe_cluster()

p = KafkaProducer(bootstrap_servers=boot, client_id="kp-producer", acks="all", linger_ms=5)
for i in range(300):
    p.send("kp-events", key=b"k%d" % (i % 5), value=b"event %d" % i)
p.flush(30)

c = KafkaConsumer("kp-events", bootstrap_servers=boot, client_id="kp-consumer", group_id="kp-group",
                  auto_offset_reset="earliest", heartbeat_interval_ms=1000, auto_commit_interval_ms=1000)
end = time.time() + stay
n = 0
while time.time() < end:
    for recs in c.poll(timeout_ms=500).values():
        n += len(recs)
c.close()

# Transactions (kafka-python 2.1 and later).
def txn():
    tp = KafkaProducer(bootstrap_servers=boot, client_id="kp-txn", transactional_id="kp-txn-1")
    tp.init_transactions()
    for t in range(6):
        tp.begin_transaction()
        for i in range(5):
            tp.send("kp-events", value=b"txn %d %d" % (t, i))
        if t % 3 == 2:
            tp.abort_transaction()
        else:
            tp.commit_transaction()
    tp.close()


tolerate("transactions", txn)

sp = KafkaProducer(bootstrap_servers=os.environ["KAFKA_SASL"], client_id="kp-sasl", security_protocol="SASL_PLAINTEXT",
                   sasl_mechanism="PLAIN", sasl_plain_username=os.environ["KAFKA_USER"], sasl_plain_password=os.environ["KAFKA_PASSWORD"])
for i in range(20):
    sp.send("kp-events", value=b"sasl %d" % i)
sp.flush(30)
sp.close()

admin.list_groups()
admin.describe_groups(["kp-group"])
admin.list_group_offsets("kp-group")
tolerate("acls", lambda: admin.describe_acls(__import__("kafka.admin", fromlist=["ACLFilter"]).ACLFilter(
    principal=None, host="*", operation=__import__("kafka.admin", fromlist=["ACLOperation"]).ACLOperation.ANY,
    permission_type=__import__("kafka.admin", fromlist=["ACLPermissionType"]).ACLPermissionType.ANY,
    resource_pattern=__import__("kafka.admin", fromlist=["ResourcePatternFilter"]).ResourcePatternFilter(
        __import__("kafka.admin", fromlist=["ResourceType"]).ResourceType.TOPIC, None,
        __import__("kafka.admin", fromlist=["ACLResourcePatternType"]).ACLResourcePatternType.ANY))))
tolerate("features", admin.describe_features)
tolerate("transactions", admin.list_transactions)
tolerate("log dirs", admin.describe_log_dirs)
tolerate("delete", lambda: admin.delete_topics(["kp-tmp"]))
admin.close()
print("kafka-python: consumed", n)
