package org.elasticam.shuffle.service.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableStat;
import org.elasticam.shuffle.service.server.ShuffleStats;

/**
 * The service's metrics2 source (context {@code elasticam}); the NodeManager's metrics system
 * publishes it to its sinks and to JMX as {@code Hadoop:service=NodeManager,name=<metricsName>}.
 * Counters move at exactly one point each: a response counts once, when it completed or failed;
 * a block when its bytes reached the socket.
 */
public final class ShuffleMetrics implements MetricsSource, ShuffleStats {

  /** The statuses the service answers with; anything else counts as ResponsesOther. */
  private static final int[] STATUSES = {200, 400, 401, 403, 404, 405, 414, 429, 431, 500, 503};

  private final MetricsRegistry registry;
  private final MutableCounterLong requests;
  private final MutableCounterLong blocks;
  private final MutableCounterLong bytes;
  private final MutableCounterLong connections;
  private final MutableCounterLong rejectedConnections;
  private final MutableCounterLong otherStatus;
  private final MutableCounterLong corruptStores;
  private final MutableStat latency;
  private final Map<Integer, MutableCounterLong> byStatus = new LinkedHashMap<>();
  private final AtomicInteger open = new AtomicInteger();
  private final Map<String, LongSupplier> gauges = new LinkedHashMap<>();
  private final Map<String, String> tags = new LinkedHashMap<>();

  public ShuffleMetrics(String name) {
    registry = new MetricsRegistry(Interns.info(name, "ElasticAM shuffle service")).setContext("elasticam");
    requests = registry.newCounter("Requests", "Requests answered", 0L);
    blocks = registry.newCounter("BlocksSent", "Blocks written to clients", 0L);
    bytes = registry.newCounter("BytesSent", "Block bytes written to clients", 0L);
    connections = registry.newCounter("Connections", "Connections accepted", 0L);
    rejectedConnections = registry.newCounter("ConnectionsRejected", "Connections answered 429", 0L);
    otherStatus = registry.newCounter("ResponsesOther", "Responses with a status not counted on its own", 0L);
    corruptStores = registry.newCounter("RecoveryStoresCorrupt", "Recovery stores found corrupt and moved aside", 0L);
    latency = registry.newStat("RequestLatency", "From request to the response's last byte", "Requests", "Micros");
    for (int s : STATUSES) {
      byStatus.put(s, registry.newCounter("Responses" + s, "Responses with status " + s, 0L));
    }
  }

  /** Adds a gauge read at every snapshot (open connections come from here). */
  public ShuffleMetrics gauge(String name, LongSupplier value) {
    gauges.put(name, value);
    return this;
  }

  /** Adds a tag, a fixed value shown with every snapshot (JMX: {@code tag.<name>}). */
  public ShuffleMetrics tag(String name, String value) {
    tags.put(name, value);
    return this;
  }

  public void corruptStoreFound() {
    corruptStores.incr();
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder rb = collector.addRecord(registry.info()).setContext("elasticam");
    tags.forEach((name, value) -> rb.tag(Interns.info(name, name), value));
    rb.addGauge(Interns.info("OpenConnections", "Connections open now"), open.get());
    gauges.forEach((name, value) -> rb.addGauge(Interns.info(name, name), value.getAsLong()));
    registry.snapshot(rb, all);
  }

  @Override
  public void connectionOpened() {
    open.incrementAndGet();
    connections.incr();
  }

  @Override
  public void connectionClosed() {
    open.decrementAndGet();
  }

  @Override
  public void connectionRejected() {
    rejectedConnections.incr();
  }

  @Override
  public void responded(int status, long latencyNanos) {
    requests.incr();
    byStatus.getOrDefault(status, otherStatus).incr();
    latency.add(latencyNanos / 1000);
  }

  @Override
  public void blockSent(long n) {
    blocks.incr();
    bytes.incr(n);
  }

  public int openConnections() {
    return open.get();
  }
}
