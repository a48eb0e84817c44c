// KafkaJS workload for scripts/realtraffic.sh: admin calls, an idempotent
// producer, transactions that commit what they consumed, a consumer group
// that stays a while (heartbeats, offset commits), and a client over SASL
// SCRAM-SHA-256. Bounded by count and time. Environment: DIR/env's
// variables, STAY (seconds the group consumer runs), NODE_PATH (where
// kafkajs is installed).
const { Kafka, logLevel } = require('kafkajs')

const boot = process.env.KAFKA_PLAINTEXT.split(',')
const stay = 1000 * Number(process.env.STAY || 20)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const tolerate = async (what, f) => {
  try {
    return await f()
  } catch (e) {
    console.log(what + ':', e.message) // a refused call is traffic too
  }
}

async function main () {
  const kafka = new Kafka({ clientId: 'kjs-app', brokers: boot, logLevel: logLevel.NOTHING })
  const admin = kafka.admin()
  await admin.connect()
  await tolerate('create', () => admin.createTopics({ topics: [{ topic: 'kjs-clicks', numPartitions: 3 }, { topic: 'kjs-out', numPartitions: 1 }, { topic: 'kjs-tmp' }] }))
  await admin.listTopics()
  await admin.fetchTopicMetadata({ topics: ['kjs-clicks'] })
  await tolerate('configs', () => admin.describeConfigs({ resources: [{ type: 2, name: 'kjs-clicks' }], includeSynonyms: false }))
  await tolerate('partitions', () => admin.createPartitions({ topicPartitions: [{ topic: 'kjs-tmp', count: 2 }] }))
  await admin.describeCluster()

  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  for (let i = 0; i < 30; i++) {
    await producer.send({ topic: 'kjs-clicks', messages: Array.from({ length: 10 }, (_, j) => ({ key: 'u' + (j % 4), value: 'click ' + i + ' ' + j })) })
  }
  await producer.disconnect()

  const consumer = kafka.consumer({ groupId: 'kjs-group', heartbeatInterval: 1000, sessionTimeout: 10000 })
  await consumer.connect()
  await consumer.subscribe({ topic: 'kjs-clicks', fromBeginning: true })
  let n = 0
  await consumer.run({ autoCommitInterval: 1000, eachMessage: async () => { n++ } })
  await sleep(stay)
  await consumer.disconnect()

  // Consume-transform-produce in transactions.
  const tp = kafka.producer({ transactionalId: 'kjs-txn-1', idempotent: true, maxInFlightRequests: 1 })
  await tp.connect()
  for (let t = 0; t < 6; t++) {
    const txn = await tp.transaction()
    await txn.send({ topic: 'kjs-out', messages: [{ value: 'out ' + t }, { value: 'more ' + t }] })
    await txn.sendOffsets({ consumerGroupId: 'kjs-group', topics: [{ topic: 'kjs-clicks', partitions: [{ partition: 0, offset: String(t + 1) }] }] })
    if (t % 3 === 2) await txn.abort()
    else await txn.commit()
  }
  await tp.disconnect()

  const sasl = new Kafka({ clientId: 'kjs-sasl', brokers: process.env.KAFKA_SASL.split(','), logLevel: logLevel.NOTHING,
    sasl: { mechanism: 'scram-sha-256', username: process.env.KAFKA_USER, password: process.env.KAFKA_PASSWORD } })
  const sp = sasl.producer()
  await sp.connect()
  for (let i = 0; i < 5; i++) await sp.send({ topic: 'kjs-clicks', messages: [{ value: 'sasl ' + i }] })
  await sp.disconnect()

  await admin.listGroups()
  await admin.describeGroups(['kjs-group'])
  await admin.fetchOffsets({ groupId: 'kjs-group', topics: ['kjs-clicks'] })
  await admin.fetchTopicOffsets('kjs-clicks')
  await tolerate('acls', () => admin.describeAcls({ resourceType: 1, host: '*', permissionType: 1, operation: 1, resourcePatternType: 1 }))
  await tolerate('delete', () => admin.deleteTopics({ topics: ['kjs-tmp'] }))
  await admin.disconnect()
  console.log('kafkajs: consumed', n)
}

main().catch((e) => { console.error(e); process.exit(1) })
