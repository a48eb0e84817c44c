// WordCount: a Kafka Streams application for scripts/realclients.sh.
// Usage: WordCount BOOTSTRAP APPLICATION_ID INPUT OUTPUT STATE_DIR GROUP_PROTOCOL SECONDS
// It counts the words of INPUT into OUTPUT with the given group.protocol
// (streams: KIP-1071, from Kafka 4.1; classic before), runs until it has
// been RUNNING for SECONDS, then closes.
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Produced;

public class WordCount {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
        p.put("group.protocol", args[5]);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put("consumer.auto.offset.reset", "earliest");
        StreamsBuilder b = new StreamsBuilder();
        b.<String, String>stream(args[2])
            .flatMapValues(v -> Arrays.asList(v.toLowerCase().split("\\W+")))
            .groupBy((k, w) -> w)
            .count()
            .toStream()
            .to(args[3], Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams s = new KafkaStreams(b.build(), p);
        CountDownLatch running = new CountDownLatch(1);
        s.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) running.countDown();
        });
        s.start();
        boolean ok = running.await(60, TimeUnit.SECONDS);
        if (ok) Thread.sleep(Long.parseLong(args[6]) * 1000);
        s.close(Duration.ofSeconds(15));
        if (!ok) {
            System.err.println("WordCount: not RUNNING after 60 s");
            System.exit(1);
        }
        System.out.println("WordCount: ran with group.protocol=" + args[5]);
    }
}
