// KafkaJS workload for scripts/realclients.sh.
// usage: node kafkajs.js BOOTSTRAP SASL_BOOTSTRAP TOPIC N GROUP USER PASSWORD
// Creates TOPIC, produces N records (key-i, "value-i from kafkajs", headers
// src and i) with gzip over SASL_PLAINTEXT SCRAM-SHA-512, then reads them
// back in a consumer group over PLAINTEXT.
const { Kafka, CompressionTypes, logLevel } = require('kafkajs');
const [boot, saslBoot, topic, nArg, group, user, password] = process.argv.slice(2);
const n = Number(nArg);

async function main() {
  console.log('kafkajs', require('kafkajs/package.json').version);
  const plain = new Kafka({ clientId: 'kwire-kafkajs', brokers: boot.split(','), logLevel: logLevel.WARN });
  const admin = plain.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 2, replicationFactor: 1 }], waitForLeaders: true });
  await admin.fetchTopicMetadata({ topics: [topic] });
  await admin.disconnect();

  const sasl = new Kafka({
    clientId: 'kwire-kafkajs', brokers: saslBoot.split(','), logLevel: logLevel.WARN,
    sasl: { mechanism: 'scram-sha-512', username: user, password },
  });
  const producer = sasl.producer();
  await producer.connect();
  const messages = [];
  for (let i = 0; i < n; i++) {
    messages.push({ key: `key-${i}`, value: `value-${i} from kafkajs`, headers: { src: 'kafkajs', i: String(i) } });
  }
  await producer.send({ topic, compression: CompressionTypes.GZIP, messages });
  await producer.disconnect();

  const consumer = plain.consumer({ groupId: group });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let got = 0;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kafkajs: read ${got} of ${n} records`)), 60000);
    consumer.run({
      eachMessage: async () => {
        got++;
        if (got === n) { clearTimeout(timer); resolve(); }
      },
    });
  });
  await consumer.disconnect();
  console.log('kafkajs: produced and consumed', n);
}

main().catch((e) => { console.error(e); process.exit(1); });
