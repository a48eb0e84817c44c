// KafkaJS workload of scripts/tlsclients.sh, run with node --tls-keylog=FILE.
// usage: node --tls-keylog=KEYLOG kafkajs.js BOOTSTRAP CA.pem TOPIC N SUITE
// Produces N records (key-i, "value-i from kafkajs-SUITE") over SSL with
// the TLS 1.3 cipher suite SUITE, and reads them back.
const fs = require('fs');
const { Kafka, logLevel } = require('kafkajs');
const [boot, ca, topic, nArg, suite] = process.argv.slice(2);
const n = Number(nArg);
const src = 'kafkajs-' + suite;

async function main() {
  const kafka = new Kafka({
    clientId: 'kwire-kafkajs', brokers: boot.split(','), logLevel: logLevel.WARN,
    ssl: { ca: [fs.readFileSync(ca)], rejectUnauthorized: false, minVersion: 'TLSv1.3', ciphers: suite },
  });
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  const messages = [];
  for (let i = 0; i < n; i++) messages.push({ key: `key-${i}`, value: `value-${i} from ${src}` });
  await producer.send({ topic, messages });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: 'kw-tls-' + suite });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let got = 0;
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`read ${got} of ${n}`)), 30000);
    consumer.run({ eachMessage: async () => { if (++got === n) { clearTimeout(t); resolve(); } } });
  });
  await consumer.disconnect();
  console.log(src, 'produced and consumed', n);
}
main().catch((e) => { console.error(e); process.exit(1); });
