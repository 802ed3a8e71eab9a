package org.elasticam.shuffle.service.server;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.elasticam.shuffle.service.metrics.ShuffleMetrics;

/** A metrics2 snapshot of the service's source, by metric name. */
public final class MetricValues {

  private MetricValues() {}

  public static Map<String, Long> of(ShuffleMetrics m) {
    MetricsCollectorImpl c = new MetricsCollectorImpl();
    m.getMetrics(c, true);
    Map<String, Long> out = new HashMap<>();
    for (MetricsRecord r : c.getRecords()) {
      for (AbstractMetric x : r.metrics()) {
        out.put(x.name(), x.value().longValue());
      }
    }
    return out;
  }
}
