"""kafka-python workload of scripts/tlsclients.sh.

usage: kafkapython.py BOOTSTRAP CA.pem TOPIC N VERSION KEYLOG
Produces N records (key-i, "value-i from kafka-python-VERSION") over SSL
with Python's ssl (OpenSSL), TLS VERSION (1.2 or 1.3), and reads them
back; OpenSSL writes the key log (SSLContext.keylog_filename).
"""
import ssl
import sys

from kafka import KafkaConsumer, KafkaProducer

boot, ca, topic, n, version, keylog = sys.argv[1:7]
n = int(n)
src = "kafka-python-" + version


def context():
    ctx = ssl.create_default_context(cafile=ca)
    ctx.check_hostname = False
    ctx.keylog_filename = keylog
    if version == "1.2":
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        ctx.set_ciphers("ECDHE+CHACHA20")
    else:
        ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    return ctx


p = KafkaProducer(bootstrap_servers=boot, security_protocol="SSL", ssl_context=context(), linger_ms=20)
for i in range(n):
    p.send(topic, key=f"key-{i}".encode(), value=f"value-{i} from {src}".encode())
p.flush(30)
p.close()
c = KafkaConsumer(topic, bootstrap_servers=boot, security_protocol="SSL", ssl_context=context(),
                  auto_offset_reset="earliest", consumer_timeout_ms=15000)
got = 0
for _ in c:
    got += 1
    if got == n:
        break
c.close()
if got < n:
    sys.exit(f"kafka-python: read {got} of {n} records")
print(src, "produced and consumed", n)
